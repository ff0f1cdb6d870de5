import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq, sql } from 'drizzle-orm';
import { api, hosts, signIn, startTestServer, type TestServer, userWith } from './harness.ts';
import { applications, outbox } from '../../server/db/schema.ts';
import { outboxEmptyText, outboxForbiddenText, outboxSignInText } from '../../server/api/outbox.routes.ts';
import { escapeHtml } from '../../server/html.ts';

let server: TestServer;
let adminCookie: string;
let adminToken: string;
let demoApp: { id: number };

/** Signs in through the real login page; the browser's cookies and the portal's access token. */
async function browser(email: string, host: string = hosts.demo) {
  const result = await signIn(server, email, undefined, host);
  if (!result.tokens || !result.cookie) throw new Error(`sign-in failed for ${email}`);
  return { cookie: result.cookie, token: result.tokens.access_token };
}

const outboxPage = (cookie?: string, host: string = hosts.demo) =>
  server.app.inject({ method: 'GET', url: '/outbox', headers: { host, ...(cookie ? { cookie } : {}) } });

beforeAll(async () => {
  server = await startTestServer();
  ({ cookie: adminCookie, token: adminToken } = await browser('admin@demo.test'));
  [demoApp] = (await server.db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.tenantId, 'demo'), eq(applications.status, 'Primary edit'), sql`${applications.dateCompleted} is null`, eq(applications.applicationModeCode, 'Pin')))
    .orderBy(asc(applications.id))
    .limit(1)) as [{ id: number }];
});
afterAll(() => server.close());

describe('GET /outbox', () => {
  it('asks a browser with no session to sign in (401), and so a forged session cookie', async () => {
    const anonymous = await outboxPage();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['content-type']).toMatch(/^text\/html/);
    expect(anonymous.body).toContain(outboxSignInText);
    // A session cookie whose signature does not match is no session.
    const forged = adminCookie.replace(/_session=([^;]+)/, '_session=forged-session-id');
    expect((await outboxPage(forged)).statusCode).toBe(401);
    // The portal's bearer token is not how a page authenticates.
    const withBearer = await server.app.inject({ method: 'GET', url: '/outbox', headers: { host: hosts.demo, authorization: `Bearer ${adminToken}` } });
    expect(withBearer.statusCode).toBe(401);
  });

  it('refuses a signed-in user without the admin claim (403)', async () => {
    const { user } = await userWith(server, 'not-admin@demo.test', ['view.allapps.instance', 'app.emailresumelink']);
    const { cookie } = await browser(user.email);
    const response = await outboxPage(cookie);
    expect(response.statusCode).toBe(403);
    expect(response.body).toContain(outboxForbiddenText);
    expect(response.body).not.toContain('<article>');
  });

  it('lists the e-mail just sent for the admin: to, subject, body with the resume link, time; newest first', async () => {
    const first = await api(server, 'POST', `/api/application/emailresumelink/${demoApp.id}`, { token: adminToken, body: { PersonalisedMessage: 'First message' } });
    expect(first.statusCode).toBe(200);
    const second = await api(server, 'POST', `/api/application/emailresumelink/${demoApp.id}`, { token: adminToken, body: { PersonalisedMessage: 'Second message' } });
    expect(second.statusCode).toBe(200);
    const response = await outboxPage(adminCookie);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-security-policy']).toMatch(/default-src 'none'/);
    const [row] = await server.db.select().from(outbox).where(eq(outbox.applicationId, demoApp.id)).limit(1);
    expect(response.body).toContain(`<dd>${escapeHtml(row!.recipient)}</dd>`);
    expect(response.body).toContain(escapeHtml(row!.subject));
    // The resume link opens from the page; a link elsewhere in a body stays text.
    expect(response.body).toMatch(/<a href="http:\/\/demo\.localhost:8080\/external\/application-form\/[0-9a-f-]+\?token=[^"]+">http:\/\/demo\.localhost:8080\/external/);
    expect(response.body).toMatch(/\d{2}\/\d{2}\/\d{4}, \d{2}:\d{2}:\d{2} UTC/);
    expect(response.body.indexOf('Second message')).toBeGreaterThan(0);
    expect(response.body.indexOf('Second message')).toBeLessThan(response.body.indexOf('First message'));
  });

  it("says of each message its channel, how it went out and its application, and sends no referrer", async () => {
    await server.db.insert(outbox).values([
      { tenantId: 'demo', channel: 'email', recipient: 'smtp@example.com', subject: 'Delivered', body: 'b', transport: 'smtp', applicationId: demoApp.id },
      { tenantId: 'demo', channel: 'email', recipient: 'nosubject@example.com', subject: '', body: 'b', transport: 'sandbox' },
      { tenantId: 'demo', channel: 'sms', recipient: '+61400000000', subject: '', body: 'b', transport: 'sandbox' },
    ]);
    const response = await outboxPage(adminCookie);
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    const article = (recipient: string) => response.body.split('<article>').find((part) => part.includes(`<dd>${recipient}</dd>`)) ?? '';
    expect(article('smtp@example.com')).toContain('<h2>Delivered</h2>');
    expect(article('smtp@example.com')).toContain('<dt>Channel</dt><dd>E-mail (delivered by SMTP)</dd>');
    expect(article('smtp@example.com')).toContain(`<dt>Application</dt><dd>${demoApp.id}</dd>`);
    expect(article('nosubject@example.com')).toContain('<h2>(no subject)</h2>');
    expect(article('nosubject@example.com')).toContain('<dt>Channel</dt><dd>E-mail (sandbox: not delivered)</dd>');
    expect(article('nosubject@example.com')).not.toContain('<dt>Application</dt>');
    expect(article('+61400000000')).toContain('<h2>SMS</h2>');
    expect(article('+61400000000')).toContain('<dt>Channel</dt><dd>SMS (sandbox: not delivered)</dd>');
  });

  it('sends a host that is no tenant to the tenant-not-found page', async () => {
    const response = await outboxPage(adminCookie, hosts.unknown);
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe('/tenantnotfound');
  });

  it('escapes every value: a message with markup shows as text', async () => {
    await server.db.insert(outbox).values({
      tenantId: 'demo',
      channel: 'sms',
      recipient: '<img src=x onerror=alert(1)>',
      subject: '',
      body: '</pre><script>alert(2)</script> https://evil.example/x http://demo.localhost:8080/"onmouseover="alert(3)',
      transport: 'sandbox',
    });
    const body = (await outboxPage(adminCookie)).body;
    expect(body).not.toContain('<img src=x');
    expect(body).not.toContain('<script>');
    expect(body).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(body).toContain('&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    expect(body).toContain('<h2>SMS</h2>');
    expect(body).not.toContain('href="https://evil.example');
    expect(body).not.toContain('"onmouseover=');
    expect(body).toContain('https://evil.example/x');
  });

  it('is tenant-scoped: acme\'s admin sees acme\'s outbox only, and a demo session means nothing on acme\'s host', async () => {
    const acme = await browser('admin@acme.test', hosts.acme);
    const page = await outboxPage(acme.cookie, hosts.acme);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(outboxEmptyText);
    expect(page.body).not.toContain('/external/application-form/');
    expect((await outboxPage(adminCookie, hosts.acme)).statusCode).toBe(401);
  });

  it('ends with the session: after logout, or once the admin claim is taken away', async () => {
    const other = await userWith(server, 'second-admin@demo.test', ['admin', 'view.allapps.instance']);
    const session = await browser(other.user.email);
    expect((await outboxPage(session.cookie)).statusCode).toBe(200);
    await server.db.execute(sql`update users set claims = array['view.allapps.instance'] where id = ${other.user.id}`);
    expect((await outboxPage(session.cookie)).statusCode).toBe(403);
    expect((await api(server, 'GET', '/api/account/logout', { token: session.token })).statusCode).toBeLessThan(300);
    expect((await outboxPage(session.cookie)).statusCode).toBe(401);
  });
});
