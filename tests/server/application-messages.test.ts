import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import { accessTokenFor, api, hosts, startTestServer, type TestServer, userWith } from './harness.ts';
import { startSmtpSink } from './smtp-sink.ts';
import { applicationActivity, applicationApplicants, applications, outbox } from '../../server/db/schema.ts';
import { ActionResultSchema, actionTexts, personalisedMessageMaxLength } from '../../src/schemas/application-actions.schema.ts';
import { applicationNotFoundMessage } from '../../server/api/application-detail.routes.ts';
import {
  applicantNotFoundMessage,
  completionEmailActivity,
  individualResumeLinkActivity,
  resumeLinkActivity,
} from '../../server/api/application-messages.routes.ts';
import { smtpMailer } from '../../server/providers/mail/smtp-mailer.ts';
import { cleanPersonalisedMessage } from '../../server/providers/mail/compose.ts';

let server: TestServer;
let admin: string;
/** Demo applications with two or more applicants, each put into the state a test needs. */
let apps: { id: number; guid: string }[];
let acmeApp: { id: number; guid: string };

const listClaim = 'view.allapps.instance';

beforeAll(async () => {
  server = await startTestServer();
  admin = await accessTokenFor(server, 'admin@demo.test');
  apps = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(
      and(
        eq(applications.tenantId, 'demo'),
        sql`${applications.status} not in ('Cancelled', 'Depersonalised')`,
        sql`(select count(*) from ${applicationApplicants} i where i.application_id = ${applications.id} and i.email <> '') >= 2`,
      ),
    )
    .orderBy(asc(applications.id))
    .limit(8);
  const [other] = await server.db
    .select({ id: applications.id, guid: applications.guid })
    .from(applications)
    .where(and(eq(applications.tenantId, 'acme'), sql`${applications.status} <> 'Cancelled'`))
    .limit(1);
  acmeApp = other!;
});
afterAll(() => server.close());

/** Puts an application into a state: status, complete or not, signing mode, primary e-mail. */
async function prepare(index: number, state: { status: string; complete: boolean; mode?: 'Pin' | 'PrintandSign'; email?: string }) {
  const app = apps[index]!;
  await server.db
    .update(applications)
    .set({
      status: state.status,
      dateCompleted: state.complete ? new Date('2025-03-04T05:06:07Z') : null,
      applicationModeCode: state.mode ?? 'Pin',
      primaryEmail: state.email ?? `primary${index}@example.com`,
    })
    .where(eq(applications.id, app.id));
  return app;
}

const incomplete = (index: number) => prepare(index, { status: 'Primary edit', complete: false });
const complete = (index: number) => prepare(index, { status: 'Complete', complete: true });

const send = (token: string | undefined, path: string, id: number | string, body: unknown = {}, host?: string) =>
  api(server, 'POST', `/api/application/${path}/${id}`, { token, body, host });

async function outboxCount() {
  const [row] = await server.db.select({ n: count() }).from(outbox);
  return row!.n;
}
async function activityCount(applicationId: number) {
  const [row] = await server.db.select({ n: count() }).from(applicationActivity).where(eq(applicationActivity.applicationId, applicationId));
  return row!.n;
}
async function latestOutboxRow() {
  const [row] = await server.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
  return row!;
}
async function latestActivity(applicationId: number) {
  const [row] = await server.db
    .select()
    .from(applicationActivity)
    .where(eq(applicationActivity.applicationId, applicationId))
    .orderBy(desc(applicationActivity.id))
    .limit(1);
  return row!;
}
async function firstApplicant(applicationId: number, position = 1) {
  const [row] = await server.db
    .select()
    .from(applicationApplicants)
    .where(and(eq(applicationApplicants.applicationId, applicationId), eq(applicationApplicants.position, position)));
  return row!;
}

const routes = ['emailresumelink', 'resendcompletionemail', 'resendindividualresumelinkemail'] as const;
const bodyFor = (path: string, individualId = '00000000-0000-4000-8000-000000000000') =>
  path === 'resendindividualresumelinkemail' ? { IndividualId: individualId } : {};

describe('the e-mail routes: 401, 400', () => {
  it.each(routes)('POST /api/application/%s/{id} is 401 without a bearer token', async (path) => {
    expect((await send(undefined, path, apps[0]!.id, bodyFor(path))).statusCode).toBe(401);
  });

  it.each(routes)('POST /api/application/%s/{id} is 400 naming the field for a bad id or body', async (path) => {
    const badId = await send(admin, path, 'abc', bodyFor(path));
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/id/);
    const long = await send(admin, path, apps[0]!.id, { ...bodyFor(path), PersonalisedMessage: 'x'.repeat(personalisedMessageMaxLength + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/PersonalisedMessage/);
    const wrongType = await send(admin, path, apps[0]!.id, { ...bodyFor(path), PersonalisedMessage: 12 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toMatch(/PersonalisedMessage/);
  });

  it('resendindividualresumelinkemail is 400 naming IndividualId when it is missing', async () => {
    const response = await send(admin, 'resendindividualresumelinkemail', apps[0]!.id, {});
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/IndividualId/);
  });
});

describe('the e-mail routes: 403 per claim, 404 for another tenant or an invisible application', () => {
  it.each([
    ['emailresumelink', 'app.emailresumelink', incomplete],
    ['resendindividualresumelinkemail', 'app.emailresumelink', incomplete],
    ['resendcompletionemail', 'app.resendcompletionemail', complete],
  ] as const)('%s needs %s and a list claim', async (path, claim, setUp) => {
    const app = await setUp(1);
    const individual = (await firstApplicant(app.id)).id;
    const before = await outboxCount();
    const withoutAction = await userWith(server, `no-action-${path}@demo.test`, [listClaim]);
    const refused = await send(withoutAction.token, path, app.id, bodyFor(path, individual));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain(claim);
    const withoutList = await userWith(server, `no-list-${path}@demo.test`, [claim]);
    expect((await send(withoutList.token, path, app.id, bodyFor(path, individual))).statusCode).toBe(403);
    // The same user with both claims may.
    const both = await userWith(server, `both-${path}@demo.test`, [listClaim, claim]);
    expect((await send(both.token, path, app.id, bodyFor(path, individual))).statusCode).toBe(200);
    expect(await outboxCount()).toBe(before + 1);
  });

  it.each(routes)('%s is 404 with the detail text for another tenant\'s, an unknown and an invisible application', async (path) => {
    const before = await outboxCount();
    for (const id of [acmeApp.id, 999_999_999]) {
      const response = await send(admin, path, id, bodyFor(path));
      expect(response.statusCode, String(id)).toBe(404);
      expect(response.json().message).toBe(applicationNotFoundMessage);
    }
    // The acme admin on the demo host is refused by the token's issuer before anything else.
    const acmeAdmin = await accessTokenFor(server, 'admin@acme.test', hosts.acme);
    expect((await send(acmeAdmin, path, apps[2]!.id, bodyFor(path), hosts.acme)).statusCode).toBe(404);
    // A view.myapps user who neither owns nor is assigned the application does not see it.
    const app = path === 'resendcompletionemail' ? await complete(2) : await incomplete(2);
    const mine = await userWith(server, `mine-${path}@demo.test`, ['view.myapps', 'app.emailresumelink', 'app.resendcompletionemail']);
    expect((await send(mine.token, path, app.id, bodyFor(path, (await firstApplicant(app.id)).id))).statusCode).toBe(404);
    expect(await outboxCount()).toBe(before);
  });

  it('resendindividualresumelinkemail is 404 for an applicant of another application or not a uuid', async () => {
    const app = await incomplete(3);
    const otherApplicant = (await firstApplicant(apps[4]!.id)).id;
    for (const IndividualId of [otherApplicant, 'not-a-uuid']) {
      const response = await send(admin, 'resendindividualresumelinkemail', app.id, { IndividualId });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(applicantNotFoundMessage);
    }
  });
});

describe('the e-mail routes: 409 per state rule, and nothing written', () => {
  it.each([
    ['emailresumelink', { status: 'Complete', complete: true }, 'The application is already complete.'],
    ['emailresumelink', { status: 'Primary edit', complete: false, mode: 'PrintandSign' }, 'A Print & Sign application has no resume link.'],
    ['emailresumelink', { status: 'Locked', complete: false }, 'A resume link cannot be sent while the status is Locked.'],
    ['emailresumelink', { status: 'Documents pending', complete: false }, 'A resume link cannot be sent while the status is Documents pending.'],
    ['resendindividualresumelinkemail', { status: 'Complete', complete: true }, 'The application is already complete.'],
    ['resendindividualresumelinkemail', { status: 'Adviser edit', complete: false }, 'A resume link cannot be sent while the status is Adviser edit.'],
    ['resendcompletionemail', { status: 'Primary submit', complete: false }, 'The application is not complete yet.'],
    ['resendcompletionemail', { status: 'Complete', complete: true, mode: 'PrintandSign' }, 'A Print & Sign application has no completion e-mail.'],
    ['resendcompletionemail', { status: 'Depersonalised', complete: true }, 'This application has been depersonalised.'],
  ] as const)('%s in %j is 409: %s', async (path, state, message) => {
    const app = await prepare(5, state);
    const before = [await outboxCount(), await activityCount(app.id)];
    const response = await send(admin, path, app.id, bodyFor(path, (await firstApplicant(app.id)).id));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(message);
    expect([await outboxCount(), await activityCount(app.id)]).toEqual(before);
  });

  it('is 409 when there is no e-mail address to send to', async () => {
    const app = await prepare(5, { status: 'Primary edit', complete: false, email: '' });
    const response = await send(admin, 'emailresumelink', app.id);
    expect(response.statusCode).toBe(409);
  });
});

describe('sending: the outbox row and the activity item together', () => {
  it('e-mails the resume link (the application form link) to the primary e-mail address', async () => {
    const app = await incomplete(0);
    const response = await send(admin, 'emailresumelink', app.id, {});
    expect(response.statusCode).toBe(200);
    expect(ActionResultSchema.parse(response.json())).toEqual({ Success: true, Message: actionTexts.emailSent });
    const row = await latestOutboxRow();
    expect(row).toMatchObject({ tenantId: 'demo', channel: 'email', recipient: 'primary0@example.com', transport: 'sandbox', applicationId: app.id });
    expect(row.subject).toBe('Continue your application with Demo Wealth');
    for (const line of [
      `You can continue application ${app.id} with Demo Wealth where you left off:`,
      'The link is valid for 24 hours. If it has expired, ask us for a new one.',
      'Demo Wealth',
      'support@demo.test · 1300 555 010',
    ]) {
      expect(row.body).toContain(line);
    }
    expect(row.body).toMatch(/^Hello \S.*,$/m);
    expect(row.html).toContain('Continue your application</a>');
    const link = new RegExp(`http://demo\\.localhost:8080/external/application-form/${app.guid}\\?token=[^\\s"<]+`).exec(row.body)?.[0];
    expect(link).toBeDefined();
    expect(row.html).toContain(`/external/application-form/${app.guid}?token=`);
    // The link opens the provider's form.
    const url = new URL(link!);
    expect((await server.app.inject({ method: 'GET', url: url.pathname + url.search, headers: { host: hosts.demo } })).statusCode).toBe(200);
    const activity = await latestActivity(app.id);
    expect(activity.activity).toBe(resumeLinkActivity('primary0@example.com', 'Avery Admin'));
    // Written in one transaction: the same statement time.
    expect(activity.createdAt.getTime()).toBe(row.createdAt.getTime());
  });

  it('e-mails one applicant their resume link', async () => {
    const app = await incomplete(0);
    const applicant = await firstApplicant(app.id);
    const response = await send(admin, 'resendindividualresumelinkemail', app.id, { IndividualId: applicant.id.toUpperCase() });
    expect(response.statusCode).toBe(200);
    const row = await latestOutboxRow();
    expect(row.recipient).toBe(applicant.email);
    expect(row.body).toContain(`Hello ${applicant.firstName} ${applicant.lastName},`);
    expect(row.body).toContain(`/external/application-form/${app.guid}?token=`);
    expect((await latestActivity(app.id)).activity).toBe(
      individualResumeLinkActivity(`${applicant.firstName} ${applicant.lastName}`, applicant.email, 'Avery Admin'),
    );
  });

  it('resends the completion e-mail', async () => {
    const app = await complete(6);
    const response = await send(admin, 'resendcompletionemail', app.id, { PersonalisedMessage: 'Thanks again.' });
    expect(response.statusCode).toBe(200);
    const row = await latestOutboxRow();
    expect(row.recipient).toBe('primary6@example.com');
    expect(row.subject).toBe('Your application with Demo Wealth is complete');
    expect(row.body).toContain(`Application ${app.id} with Demo Wealth was completed on 04/03/2025. Thank you.`);
    expect(row.body).toContain('There is nothing more you need to do. We will be in touch if we need anything else.');
    expect(row.body).toContain('support@demo.test · 1300 555 010');
    const detail = (await api(server, 'GET', `/api/application/get/${app.id}`, { token: admin })).json<{ PrimaryApplicantName: string }>();
    expect(row.body).toContain(`Hello ${detail.PrimaryApplicantName || 'there'},`);
    expect(row.body).toContain('Message from Avery Admin:\nThanks again.');
    expect((await latestActivity(app.id)).activity).toBe(completionEmailActivity('primary6@example.com', 'Avery Admin'));
  });

  it('escapes the personalised message into the HTML part: no markup from it survives', async () => {
    const app = await incomplete(0);
    const hostile = '<script>alert(1)</script>\r\n<a href="https://evil.example">click</a> & <b>bold</b>\u0007\u202e';
    const response = await send(admin, 'emailresumelink', app.id, { PersonalisedMessage: hostile });
    expect(response.statusCode).toBe(200);
    const row = await latestOutboxRow();
    expect(row.html).not.toContain('<script>');
    expect(row.html).not.toContain('<a href="https://evil.example">');
    expect(row.html).not.toContain('<b>bold</b>');
    expect(row.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(row.html).toContain('&lt;a href=&quot;https://evil.example&quot;&gt;click&lt;/a&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    // The text part carries what was typed, without the bell and the direction override.
    expect(row.body).toContain('<script>alert(1)</script>\n<a href="https://evil.example">click</a> & <b>bold</b>');
    expect(row.body.includes('\u0007') || row.body.includes('\u202e')).toBe(false);
    expect(cleanPersonalisedMessage('  \n\t ')).toBe('');
    expect(cleanPersonalisedMessage('a\n\n\n\nb')).toBe('a\n\nb');
  });

  it('writes nothing when the transaction fails halfway (the activity insert is refused)', async () => {
    const app = await incomplete(7);
    const before = [await outboxCount(), await activityCount(app.id)];
    await server.db.execute(sql.raw(`alter table application_activity add constraint refuse_resume_link check (activity not like 'Resume link%') not valid`));
    try {
      const response = await send(admin, 'emailresumelink', app.id, {});
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/refuse_resume_link|constraint/);
    } finally {
      await server.db.execute(sql.raw('alter table application_activity drop constraint refuse_resume_link'));
    }
    expect([await outboxCount(), await activityCount(app.id)]).toEqual(before);
  });
});

describe('SMTP when SMTP_URL is set', () => {
  it('the SMTP mailer hands nodemailer the message (JSON transport)', async () => {
    const mailer = smtpMailer(nodemailer.createTransport({ jsonTransport: true }), 'sender@demo.test');
    const result = await mailer.deliver({ fromName: 'Demo', to: 'a@example.com', subject: 'S', text: 'T', html: '<p>T</p>' });
    expect(mailer.transport).toBe('smtp');
    expect(result.transportId).toMatch(/@/);
  });

  it('delivers to an SMTP server and records the delivery; a refused recipient fails the action and writes nothing', async () => {
    const sink = await startSmtpSink(['refused@example.com']);
    const smtpServer = await startTestServer({ SMTP_URL: sink.url, MAIL_FROM: 'portal@demo.test' });
    try {
      const token = await accessTokenFor(smtpServer, 'admin@demo.test');
      const app = apps[0]!;
      await smtpServer.db
        .update(applications)
        .set({ status: 'Primary edit', dateCompleted: null, applicationModeCode: 'Pin', primaryEmail: 'applicant@example.com' })
        .where(eq(applications.id, app.id));
      const sent = await api(smtpServer, 'POST', `/api/application/emailresumelink/${app.id}`, { token, body: { PersonalisedMessage: 'See you soon' } });
      expect(sent.statusCode).toBe(200);
      expect(sink.messages).toHaveLength(1);
      expect(sink.messages[0]!.from).toBe('portal@demo.test');
      expect(sink.messages[0]!.to).toEqual(['applicant@example.com']);
      expect(sink.messages[0]!.data).toMatch(/^Subject: Continue your application with /m);
      const [row] = await smtpServer.db.select().from(outbox).orderBy(desc(outbox.id)).limit(1);
      expect(row).toMatchObject({ transport: 'smtp', recipient: 'applicant@example.com' });
      expect(row!.transportId).toMatch(/@/);

      await smtpServer.db.update(applications).set({ primaryEmail: 'refused@example.com' }).where(eq(applications.id, app.id));
      const [{ n: rowsBefore }] = (await smtpServer.db.select({ n: count() }).from(outbox)) as [{ n: number }];
      const refused = await api(smtpServer, 'POST', `/api/application/emailresumelink/${app.id}`, { token, body: {} });
      expect(refused.statusCode).toBe(500);
      expect(refused.json().errorId).toBeDefined();
      const [{ n: rowsAfter }] = (await smtpServer.db.select({ n: count() }).from(outbox)) as [{ n: number }];
      expect(rowsAfter).toBe(rowsBefore);
      expect(sink.messages).toHaveLength(1);
    } finally {
      await smtpServer.close();
      await sink.close();
    }
  });
});
