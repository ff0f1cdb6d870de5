import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokenFor, api, hosts, startTestServer, type TestServer } from './harness.ts';

/**
 * The stand-in for the provider's application form (New, Request edit and Request view open it in
 * a new window, AM §2 and §4): what its page shows for each kind of link, what it saves, and what it
 * refuses, with the texts a person reads.
 */
let server: TestServer;
let admin: string;
beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
});
afterAll(() => server.close());

/** A new application and its edit link. */
async function newApplication() {
  const created = await api(server, 'POST', '/api/application/new', { token: admin });
  expect(created.statusCode).toBe(200);
  const body = created.json<{ Message: string; Url: string }>();
  const url = new URL(body.Url);
  return { message: body.Message, url, guid: url.pathname.split('/').pop()!, token: url.searchParams.get('token')! };
}

const open = (path: string, host: string = hosts.demo) => server.app.inject({ method: 'GET', url: path, headers: { host } });
const save = (guid: string, fields: Record<string, string>) =>
  server.app.inject({
    method: 'POST',
    url: `/external/application-form/${guid}`,
    headers: { host: hosts.demo, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
const fields = { AccountName: 'Okafor Holdings', ClientName: 'Ada Okafor', PrimaryEmail: 'ada@example.com' };

describe('the application form', () => {
  it('says which application was created, and its edit link shows a form that saves, then says so', async () => {
    const { message, url, guid, token } = await newApplication();
    const id = /^Application (\d+) created\.$/.exec(message)?.[1];
    expect(id, message).toBeDefined();

    const page = await open(url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'nonce-[A-Za-z0-9+/=]+'; .*form-action 'self'; frame-ancestors 'none'/);
    expect(page.body).toContain(`<h1>Application ${id}</h1>`);
    expect(page.body).toContain(`<form method="post" action="/external/application-form/${guid}">`);
    expect(page.body).not.toContain('Your changes have been saved.');

    const saved = await save(guid, { token, ...fields, AccountName: '  Okafor Holdings  ' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/external/application-form/${guid}?token=${encodeURIComponent(token)}&saved=1`);
    const after = await open(saved.headers.location as string);
    expect(after.body).toContain('<p class="saved" role="status">Your changes have been saved.</p>');
    // Trimmed as typed into the list's search.
    expect(after.body).toContain('value="Okafor Holdings"');
    expect(after.body).toContain('value="ada@example.com"');
  });

  it('refuses a bad field with 400 naming it, and keeps what was saved', async () => {
    const { guid, token } = await newApplication();
    const email = await save(guid, { token, ...fields, PrimaryEmail: 'not an e-mail' });
    expect(email.statusCode).toBe(400);
    expect(email.json().message).toContain('PrimaryEmail: must be an e-mail address');
    for (const name of ['AccountName', 'ClientName'] as const) {
      const long = await save(guid, { token, ...fields, [name]: 'x'.repeat(201) });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toContain(`${name}: at most 200 characters`);
    }
    expect((await save(guid, { token, AccountName: 'x'.repeat(200), ClientName: '', PrimaryEmail: '' })).statusCode).toBe(303);
  });

  it('shows a view link read-only: the details without a form, and a save through it is 403', async () => {
    const { guid } = await newApplication();
    const view = await api(server, 'GET', `/api/application/requestview/${guid}`, { token: admin });
    const url = new URL(view.json<{ Url: string }>().Url);
    const page = await open(url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<dt>Account name</dt>');
    expect(page.body).not.toContain('<form');
    const refused = await save(guid, { token: url.searchParams.get('token')!, ...fields });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('This link only shows the application.');
  });

  it('closes a cancelled application: the page says so and a save is 409', async () => {
    const { url, guid, token } = await newApplication();
    const cancel = await api(server, 'POST', '/api/application/cancel', { token: admin, body: { ApplicationCancellations: [{ ApplicationGuid: guid }] } });
    expect(cancel.statusCode).toBe(200);
    const page = await open(url.pathname + url.search);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<p class="saved" role="status">This application has been cancelled and can no longer be edited.</p>');
    expect(page.body).not.toContain('<form');
    const refused = await save(guid, { token, ...fields });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('This application has been cancelled and can no longer be edited.');
  });

  it('answers 403 for a link without a valid token, 404 for an unknown application or host', async () => {
    const { url, guid } = await newApplication();
    for (const path of [url.pathname, `${url.pathname}?token=forged`]) {
      const response = await open(path);
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe('The link is invalid or has expired.');
    }
    const unknown = await open(`/external/application-form/0f0f0f0f-0f0f-4f0f-8f0f-0f0f0f0f0f0f${url.search}`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This application cannot be found.');
    const nowhere = await open(url.pathname + url.search, hosts.unknown);
    expect(nowhere.statusCode).toBe(404);
    expect((await save(guid, { token: 'forged', ...fields })).statusCode).toBe(403);
  });
});
