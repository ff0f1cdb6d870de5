import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, setup, toPromise, type AnyActorLogic, type AnyEventObject, type AnyStateMachine } from 'xstate';
import { adminConfigurationMachine } from '../../src/machines/admin-configuration.machine.ts';
import { applicationCommentsMachine } from '../../src/machines/application-comments.machine.ts';
import { applicationDetailMachine } from '../../src/machines/application-detail.machine.ts';
import { applicationListMachine } from '../../src/machines/application-list.machine.ts';
import { bulkUploadMachine } from '../../src/machines/bulk-upload.machine.ts';
import { assigneePickerMachine } from '../../src/machines/assignee-picker.machine.ts';
import { cancelApplicationsMachine } from '../../src/machines/cancel-applications.machine.ts';
import { changePasswordMachine } from '../../src/machines/change-password.machine.ts';
import { confirmActionMachine, type ConfirmedCall } from '../../src/machines/confirm-action.machine.ts';
import { documentUploadMachine } from '../../src/machines/document-upload.machine.ts';
import { fieldEditorMachine } from '../../src/machines/field-editor.machine.ts';
import { identityVerificationMachine } from '../../src/machines/identity-verification.machine.ts';
import { labelPickerMachine } from '../../src/machines/label-picker.machine.ts';
import { newApplicationOnBehalfMachine } from '../../src/machines/new-application-on-behalf.machine.ts';
import { newApplicationMachine } from '../../src/machines/new-application.machine.ts';
import { pingMachine } from '../../src/machines/ping.machine.ts';
import { requestEditMachine } from '../../src/machines/request-edit.machine.ts';
import { defaultFilterOptions, statusOptions, withNoneOption } from '../../src/domain/list-filter-summary.ts';
import { setAccessTokenSource } from '../../src/services/http.ts';

/**
 * The machines' own actors (the path tests replace them with inert ones): each calls the endpoint
 * of the spec (AM §7) with what the machine gave it, and reads the answer as the machine expects.
 * Only fetch is replaced: the services, the HTTP wrapper and the schemas are the real ones.
 */

vi.mock('../../src/services/monitoring.ts', () => ({ reportError: () => undefined }));
vi.mock('../../src/services/runtime-config.ts', () => ({
  runtimeConfig: () => ({ apiBase: 'http://portal.test/api', entityVerificationBase: 'http://portal.test/ev', identityBase: 'http://portal.test/identity' }),
}));

interface Sent {
  method: string;
  path: string;
  body: unknown;
}

const fetchMock = vi.fn<typeof fetch>();
const sent: Sent[] = [];
let answers: unknown[] = [];

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeAll(() => {
  vi.stubGlobal('fetch', fetchMock);
  setAccessTokenSource(() => 'token');
});

beforeEach(() => {
  sent.length = 0;
  answers = [];
  fetchMock.mockReset();
  fetchMock.mockImplementation(async (input) => {
    const request = input as Request;
    const text = await request.clone().text();
    const url = new URL(request.url);
    sent.push({ method: request.method, path: url.pathname + url.search, body: text === '' ? undefined : JSON.parse(text) });
    const answer = answers.shift();
    return answer instanceof Response ? answer : json(answer ?? {});
  });
});
afterEach(() => vi.clearAllMocks());

/** Runs `machine`'s own actor `name` with `input`, the server answering `replies` in turn. */
async function runActor(machine: AnyStateMachine, name: string, input: unknown, ...replies: unknown[]) {
  answers = replies;
  const logic = (machine.implementations.actors as Record<string, AnyActorLogic>)[name];
  if (!logic) throw new Error(`${machine.id} has no actor ${name}`);
  return toPromise(createActor(logic, { input }).start());
}

/**
 * Runs `machine`'s own callback actor `name` under a parent that records what it sends back, until
 * `settled` holds for those events.
 */
async function runCallback(machine: AnyStateMachine, name: string, input: unknown, settled: (received: AnyEventObject[]) => boolean, ...replies: unknown[]) {
  answers = replies;
  const logic = (machine.implementations.actors as Record<string, AnyActorLogic>)[name];
  if (!logic) throw new Error(`${machine.id} has no actor ${name}`);
  const received: AnyEventObject[] = [];
  const parent = createActor(
    setup({ actors: { child: logic } }).createMachine({ invoke: { src: 'child', input }, on: { '*': { actions: ({ event }) => received.push(event) } } }),
  ).start();
  await vi.waitFor(() => expect(settled(received)).toBe(true));
  parent.stop();
  return received;
}

/** XMLHttpRequest as the upload uses it (it reports progress, which fetch cannot); `finish` ends each send. */
class FakeUpload {
  static requests: FakeUpload[] = [];
  static finish: (request: FakeUpload) => void = () => undefined;
  method = '';
  url = '';
  status = 0;
  responseText = '';
  body: unknown;
  upload: { onprogress?: (event: { lengthComputable: boolean; loaded: number; total: number }) => void } = {};
  onload?: () => void;
  onerror?: () => void;
  onabort?: () => void;
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
    FakeUpload.requests.push(this);
  }
  setRequestHeader() {}
  abort() {
    this.onabort?.();
  }
  send(body: unknown) {
    this.body = body;
    setTimeout(() => FakeUpload.finish(this));
  }
}

function stubUploadRequest(finish: (request: FakeUpload) => void) {
  FakeUpload.requests = [];
  FakeUpload.finish = finish;
  vi.stubGlobal('XMLHttpRequest', FakeUpload);
  return FakeUpload.requests;
}

/** Ends a stubbed upload the way a server that took it does: `loaded` of `total` sent, then 200 with `body`. */
const uploadAnswered = (body: unknown, loaded: number, total: number) => (request: FakeUpload) => {
  request.upload.onprogress?.({ lengthComputable: true, loaded, total });
  request.status = 200;
  request.responseText = JSON.stringify(body);
  request.onload?.();
};

describe('the bulk upload (AM §2 Bulk upload modal, §7)', () => {
  const file = new File(['xlsx bytes'], 'applications.xlsx');
  const response = { Success: true, Message: '2 application(s) created.', ResponseType: 'Success', TemporaryErrorFileId: null };

  it('posts the file, passes on its progress, then the answer', async () => {
    const requests = stubUploadRequest(uploadAnswered(response, 4, 10));
    const received = await runCallback(bulkUploadMachine, 'uploadFile', { file }, (events) => events.some((event) => event.type === 'upload.answered'));
    expect(requests.map(({ method, url }) => `${method} ${new URL(url).pathname}`)).toEqual(['POST /api/application/bulkupload']);
    expect((requests[0]?.body as FormData).get('files[]')).toMatchObject({ name: 'applications.xlsx' });
    expect(received.filter((event) => event.type.startsWith('upload.'))).toEqual([
      { type: 'upload.progress', loaded: 4, total: 10 },
      { type: 'upload.answered', response },
    ]);
  });

  it('says when the upload could not be sent', async () => {
    stubUploadRequest((request) => request.onerror?.());
    const received = await runCallback(bulkUploadMachine, 'uploadFile', { file }, (events) => events.some((event) => event.type === 'upload.failed'));
    expect(received.filter((event) => event.type.startsWith('upload.'))).toEqual([{ type: 'upload.failed' }]);
  });
});

describe('a document upload (AM §5, §7 POST /document/upload/{id})', () => {
  const file = new File(['%PDF-1.4'], 'statement.pdf');
  const response = { UploadedDocuments: [], ErrorNo: 0, Message: '' };
  const input = { applicationId: '1042', file };
  const uploadEvents = (events: AnyEventObject[]) => events.filter((event) => event.type.startsWith('upload.'));

  it('posts the file, passes on its progress, then the answer', async () => {
    const requests = stubUploadRequest(uploadAnswered(response, 4, 8));
    const received = await runCallback(documentUploadMachine, 'uploadDocument', input, (events) => events.some((event) => event.type === 'upload.answered'));
    expect(requests.map(({ method, url }) => `${method} ${new URL(url).pathname}`)).toEqual(['POST /api/document/upload/1042']);
    expect((requests[0]?.body as FormData).getAll('files')).toMatchObject([{ name: 'statement.pdf' }]);
    expect(uploadEvents(received)).toEqual([
      { type: 'upload.progress', sent: 4, total: 8 },
      { type: 'upload.answered', response },
    ]);
  });

  it('says when the file could not be sent', async () => {
    stubUploadRequest((request) => request.onerror?.());
    const received = await runCallback(documentUploadMachine, 'uploadDocument', input, (events) => events.some((event) => event.type === 'upload.failed'));
    expect(uploadEvents(received)).toEqual([{ type: 'upload.failed' }]);
  });
});

describe('the bulk upload downloads (AM §2 Bulk upload modal, §7)', () => {
  const failed = (received: AnyEventObject[]) => received.some((event) => event.type === 'download.failed');
  it('asks for the template, and says when it could not be had', async () => {
    await runCallback(bulkUploadMachine, 'downloadTemplate', undefined, failed, json({ Message: 'no' }, 500));
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /api/application/bulkupload/template']);
  });
  it('asks for the error file of the upload by its id, and says when it could not be had', async () => {
    await runCallback(bulkUploadMachine, 'downloadErrorFile', { id: 'f 1' }, failed, json({ Message: 'gone' }, 404));
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /api/application/bulkupload/errorfile/f%201']);
  });
});

/** The server answering by path, whatever the order of the requests (404 for any other path). */
const answerByPath = (byPath: Record<string, Response | (() => Response)>) =>
  fetchMock.mockImplementation(async (input) => {
    const answer = byPath[new URL((input as Request).url).pathname];
    return typeof answer === 'function' ? answer() : (answer ?? json({}, 404));
  });

describe("the list's filter options (AM §2 Filters modal)", () => {
  it('offers the statuses of System information and every list with (None) first, names and values only', async () => {
    const list = (...names: string[]) => () => json(names.map((name) => ({ Name: name, Value: `v-${name}` })));
    answerByPath({
      '/api/configuration/information': () => json({ ApplicationStatuses: ['Complete', 'Incomplete'], MaximumLabelLimit: 7, AcceptedDocumentUploadExtensions: [] }),
      '/api/subbrand/list': list('Retail'),
      // The assignees carry whether each can be assigned, which a filter has no use for.
      '/api/account/assignees': () => json({ Assignees: [{ Name: 'Alex', Value: 'v-Alex', Assignable: false }] }),
      '/api/label/list': list('VIP'),
      '/api/label/system/list': list('Migrated'),
      '/api/product/list': list('Savings'),
    });
    const offered = await runActor(applicationListMachine, 'loadFilterOptions', undefined);
    expect(offered).toEqual({
      status: statusOptions(['Complete', 'Incomplete']),
      subBrand: withNoneOption([{ Name: 'Retail', Value: 'v-Retail' }]),
      assignee: withNoneOption([{ Name: 'Alex', Value: 'v-Alex' }]),
      label: withNoneOption([{ Name: 'VIP', Value: 'v-VIP' }]),
      sysLabel: withNoneOption([{ Name: 'Migrated', Value: 'v-Migrated' }]),
      products: withNoneOption([{ Name: 'Savings', Value: 'v-Savings' }]),
    });
  });

  it('keeps the default options of each list that cannot load', async () => {
    answerByPath({});
    await expect(runActor(applicationListMachine, 'loadFilterOptions', undefined)).resolves.toEqual(defaultFilterOptions);
  });
});

describe("the detail's configuration (AM §3 System configuration, System information)", () => {

  it('reads the settings, the visible rows and the accepted extensions', async () => {
    answerByPath({
      '/api/configuration/custom': () =>
        json({
          UISystemConfiguration: { ShowDocumentListBeforeCompletion: true, ShowEVSummaryResult: true },
          UserManagementConfiguration: { AustralianMobileNumberOnly: true, DisplayUserInviteAlert: false, UserInviteAlertText: '', EditPermissionsDisclaimerText: '', NewUserAppAccessToggleDefaultON: false },
        }),
      '/api/configuration/rows': () => json({ RowNames: ['Mode', 'Label'] }),
      '/api/configuration/information': () => json({ ApplicationStatuses: [], MaximumLabelLimit: 7, AcceptedDocumentUploadExtensions: ['pdf', 'png'] }),
    });
    await expect(runActor(applicationDetailMachine, 'loadConfiguration', undefined)).resolves.toEqual({
      settings: { showDocumentListBeforeCompletion: true, showEVSummaryResult: true },
      rowNames: ['Mode', 'Label'],
      acceptedExtensions: ['pdf', 'png'],
    });
  });

  it('keeps the defaults for what cannot load', async () => {
    answerByPath({});
    await expect(runActor(applicationDetailMachine, 'loadConfiguration', undefined)).resolves.toEqual({
      settings: { showDocumentListBeforeCompletion: false, showEVSummaryResult: false },
      rowNames: [],
      acceptedExtensions: [],
    });
  });
});

describe('the confirm modal (AM §2, §4, §7)', () => {
  const ok = { Success: true, Message: '' };
  const run = (call: ConfirmedCall, message: string, ...replies: unknown[]) =>
    runActor(confirmActionMachine, 'runAction', { call, message }, ...replies);

  it.each<[ConfirmedCall, string, string]>([
    [{ type: 'unlockApplication', applicationId: '42' }, 'POST', '/api/application/unlockapplication/42'],
    [{ type: 'emailResumeLink', applicationId: '42' }, 'POST', '/api/application/emailresumelink/42'],
    [{ type: 'resendCompletionEmail', applicationId: '42' }, 'POST', '/api/application/resendcompletionemail/42'],
    [{ type: 'resendIndividualResumeLink', applicationId: '42', individualId: '7' }, 'POST', '/api/application/resendindividualresumelinkemail/42'],
    [{ type: 'unlockApplicant', request: { ApplicationGuid: 'g-1', IndividualId: 7 } as never }, 'POST', '/api/applicant/labformmfaunlock'],
  ])('%j calls %s %s and reads Success', async (call, method, path) => {
    await expect(run(call, '', ok)).resolves.toEqual({ succeeded: true, message: '' });
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toEqual([`${method} ${path}`]);
    await expect(run(call, '', { Success: false, Message: 'Not now.' })).resolves.toEqual({ succeeded: false, message: 'Not now.' });
  });

  it('sends the personalised message trimmed with the e-mails, and none when it is blank', async () => {
    await run({ type: 'emailResumeLink', applicationId: '42' }, '  Hello there  ', ok);
    await run({ type: 'resendCompletionEmail', applicationId: '42' }, '   ', ok);
    await run({ type: 'resendIndividualResumeLink', applicationId: '42', individualId: '7' }, ' Hi ', ok);
    expect(sent.map((request) => request.body)).toEqual([
      { PersonalisedMessage: 'Hello there' },
      {},
      { IndividualId: '7', PersonalisedMessage: 'Hi' },
    ]);
  });

  it('reads an API step by its ErrorNo: 0 is done, anything else is refused with its Message', async () => {
    const call: ConfirmedCall = { type: 'triggerApi', request: { ApplicationGuid: 'g-1', ApiName: 'KYC' } };
    // Issue 32: its Message is kept on success too; a 15xx time-out may pass on retry.
    await expect(run(call, '', { ErrorNo: 0, Message: 'Queued' })).resolves.toEqual({ succeeded: true, message: 'Queued', retryable: false });
    await expect(run(call, '', { ErrorNo: 3, Message: 'Provider down' })).resolves.toEqual({ succeeded: false, message: 'Provider down', retryable: false });
    await expect(run(call, '', { ErrorNo: 1504, Message: 'Timed out' })).resolves.toEqual({ succeeded: false, message: 'Timed out', retryable: true });
    expect(sent[0]).toEqual({ method: 'POST', path: '/api/application/triggerapi', body: { ApplicationGuid: 'g-1', ApiName: 'KYC' } });
  });

  it("cancels one application and reads that application's result", async () => {
    const call: ConfirmedCall = { type: 'cancel', applicationGuid: 'g-1' };
    const results = (success: boolean) => ({ Results: [{ ApplicationGuid: 'g-2', Success: true }, { ApplicationGuid: 'g-1', Success: success }] });
    await expect(run(call, '', results(true))).resolves.toEqual({ succeeded: true, message: '' });
    await expect(run(call, '', results(false))).resolves.toEqual({ succeeded: false, message: '' });
    await expect(run(call, '', { Results: [{ ApplicationGuid: 'g-2', Success: true }] })).resolves.toEqual({ succeeded: false, message: '' });
  });

  it('depersonalises by guid and reads OverallSuccess, with the ErrorMessage when it failed', async () => {
    const call: ConfirmedCall = { type: 'depersonalise', applicationGuid: 'g-1' };
    await expect(run(call, '', { OverallSuccess: true, ErrorMessage: '' })).resolves.toEqual({ succeeded: true, message: '' });
    await expect(run(call, '', { OverallSuccess: false, ErrorMessage: 'Already done.' })).resolves.toEqual({
      succeeded: false,
      message: 'Already done.',
    });
    expect(sent[0]?.method).toBe('PUT');
    expect(sent[0]?.path).toBe('/api/application/depersonalise/g-1');
  });
});

describe("every other machine's calls (AM §7)", () => {
  const calls: [AnyStateMachine, string, unknown, string, unknown?][] = [
    [adminConfigurationMachine, 'loadColumns', undefined, 'GET /api/admin/columns'],
    [adminConfigurationMachine, 'saveColumns', { columns: [{ ColumnName: 'Label', Viewable: false }] }, 'POST /api/admin/save', { Columns: [{ ColumnName: 'Label', Viewable: false }] }],
    [adminConfigurationMachine, 'loadRows', undefined, 'GET /api/admin/rows'],
    [adminConfigurationMachine, 'saveRows', { rows: [{ ApplicationDetailRowName: 'Mode', Viewable: true }] }, 'POST /api/admin/rows/save', { Rows: [{ ApplicationDetailRowName: 'Mode', Viewable: true }] }],
    [applicationCommentsMachine, 'loadComments', { applicationId: '42' }, 'GET /api/comment/42'],
    [applicationCommentsMachine, 'saveComment', { applicationId: '42', comment: 'Called back' }, 'POST /api/comment/42', { Comment: 'Called back' }],
    [applicationDetailMachine, 'loadDetail', { applicationId: '42' }, 'GET /api/application/get/42'],
    [applicationDetailMachine, 'loadConfiguration', undefined, 'GET /api/configuration/custom'],
    [applicationDetailMachine, 'reloadApplication', { applicationId: '42' }, 'POST /api/application/reload/42', {}],
    [applicationDetailMachine, 'loadActivity', { applicationId: '42' }, 'GET /api/application/activityfeed/42'],
    [applicationDetailMachine, 'loadIps', { applicationId: '42' }, 'GET /api/application/get/ips/42'],
    [applicationDetailMachine, 'downloadDocument', { query: { ApplicationGuid: 'g-1', LabDocsId: '5' }, fileName: 'a.pdf' }, 'GET /api/document?ApplicationGuid=g-1&LabDocsId=5'],
    [applicationDetailMachine, 'downloadAllDocuments', { applicationId: '42' }, 'GET /api/document/zip/42'],
    [applicationListMachine, 'loadColumns', undefined, 'GET /api/configuration/columns'],
    [assigneePickerMachine, 'loadAssignees', undefined, 'GET /api/account/assignees'],
    [assigneePickerMachine, 'saveAssignee', { applicationId: '42', assigneeId: null }, 'POST /api/application/assign/42', { GlobalUserId: null }],
    [cancelApplicationsMachine, 'cancelApplications', { guids: ['g-1', 'g-2'] }, 'POST /api/application/cancel'],
    [changePasswordMachine, 'changePassword', { oldPassword: 'old-Secret1', newPassword: 'new-Secret2' }, 'POST /identity/account/changepassword'],
    [fieldEditorMachine, 'loadChoices', { field: 'owner' }, 'GET /api/owner/list'],
    [fieldEditorMachine, 'saveField', { field: 'owner', applicationId: '42', value: 'o-1' }, 'POST /api/application/updateowner/42', { NewOwnerId: 'o-1' }],
    [fieldEditorMachine, 'saveField', { field: 'email', applicationId: '42', value: 'jo@example.org' }, 'POST /api/application/changeprimaryemail/42', { PrimaryEmail: 'jo@example.org' }],
    [fieldEditorMachine, 'saveField', { field: 'signingMode', applicationId: '42', value: 'PrintandSign' }, 'POST /api/application/changesigningmode/42/PrintandSign'],
    [identityVerificationMachine, 'loadOptions', { applicationGuid: 'g-1', individualId: 'i-1' }, 'GET /api/Reverification/identificationOptions/g-1/i-1'],
    [identityVerificationMachine, 'verify', { applicationGuid: 'g-1', request: { IndividualGuid: 'i-1' } }, 'POST /api/Reverification/verify/g-1', { IndividualGuid: 'i-1' }],
    [labelPickerMachine, 'addLabel', { text: 'Urgent' }, 'POST /api/label/add', { LabelText: 'Urgent' }],
    [labelPickerMachine, 'saveLabel', { applicationGuid: 'g-1', label: '' }, 'POST /api/label/save', { ApplicationId: 'g-1', Label: '' }],
    [newApplicationOnBehalfMachine, 'loadOwners', undefined, 'GET /api/owner/list'],
    [newApplicationOnBehalfMachine, 'createOnBehalf', { OwnerId: 'o-1' }, 'POST /api/application/newonbehalf', { OwnerId: 'o-1' }],
    [newApplicationMachine, 'createApplication', undefined, 'POST /api/application/new', {}],
    [pingMachine, 'ping', undefined, 'GET /api/account/ping'],
    [requestEditMachine, 'requestEdit', { applicationGuid: 'g-1', confirmationAccepted: true }, 'POST /api/application/requestedit/g-1', { ConfirmationAccepted: true }],
    [requestEditMachine, 'requestView', { applicationGuid: 'g-1' }, 'GET /api/application/requestview/g-1'],
    [requestEditMachine, 'downloadReport', { applicationGuid: 'g-1', reportName: 'Summary' }, 'GET /api/report?ApplicationGuid=g-1&ReportName=Summary'],
  ];
  it.each(calls.map(([machine, actor, input, request, body]) => [machine.id, actor, input, request, body, machine] as const))('%s %s(%j) calls %s', async (_, actor, input, request, body, machine) => {
    await runActor(machine, actor, input).catch(() => undefined);
    expect(sent.map(({ method, path }) => `${method} ${path}`)).toContain(request);
    if (body !== undefined) expect(sent.find(({ method, path }) => `${method} ${path}` === request)?.body).toEqual(body);
  });

  it('offers the two signing modes and no choices for the e-mail without asking the server', async () => {
    await expect(runActor(fieldEditorMachine, 'loadChoices', { field: 'signingMode' })).resolves.toEqual([
      { id: 'Pin', name: 'Online' },
      { id: 'PrintandSign', name: 'Print & Sign' },
    ]);
    await expect(runActor(fieldEditorMachine, 'loadChoices', { field: 'email' })).resolves.toEqual([]);
    expect(sent).toEqual([]);
  });

  it('reads the owners as choices, and the labels with their limit', async () => {
    await expect(
      runActor(fieldEditorMachine, 'loadChoices', { field: 'owner' }, { ApplicationOwners: [{ PublicId: 'o-1', DisplayName: 'Olivia Owner', GlobalUserId: 'u-1' }] }),
    ).resolves.toEqual([{ id: 'o-1', name: 'Olivia Owner' }]);
    answers = [];
    fetchMock.mockImplementation(async (input) => {
      const path = new URL((input as Request).url).pathname;
      return json(
        path === '/api/label/list'
          ? [{ Name: 'Urgent', Value: 'Urgent' }]
          : { ApplicationStatuses: [], MaximumLabelLimit: 7, AcceptedDocumentUploadExtensions: [] },
      );
    });
    await expect(runActor(labelPickerMachine, 'loadLabels', undefined)).resolves.toEqual({ labels: [{ Name: 'Urgent', Value: 'Urgent' }], maximum: 7 });
  });
});
