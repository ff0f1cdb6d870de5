import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  acceptAttribute,
  applicationNotFoundText,
  approverDisplay,
  commentProblem,
  defaultDetailSettings,
  detailCards,
  detailRows,
  detailStatusStyle,
  exceptionName,
  formatActivityDate,
  formatApprovalDate,
  formatDetailDate,
  isAcceptedDocument,
  isRequirementMet,
  isShownComplete,
  loadingApplicationText,
  newestFirst,
  noDocumentsText,
  progressPercent,
  taxDisplay,
  timeToComplete,
  vpnUnavailableText,
} from '../../src/domain/application-detail.ts';
import { applicationStatuses } from '../../src/domain/application-status.ts';
import { applicationManagerClaims } from '../../src/domain/claims.ts';
import { listReturnHref } from '../../src/domain/page-titles.ts';
import type { ApplicationDetail } from '../../src/schemas/application-detail.schema.ts';

const created = dayjs('2026-03-04T09:05:00').unix();
const completed = dayjs('2026-03-06T12:30:00').unix();

const detail = (change: Partial<ApplicationDetail> = {}): ApplicationDetail => ({
  ApplicationGuid: 'guid-1',
  ApplicationId: 1001,
  ApplicationID: 1001,
  AccountName: 'Jane Citizen',
  Status: 'Complete',
  LastApplicationStatus: 'Secondary review',
  IsComplete: true,
  CompletionPercentage: 100,
  DateCreatedTimestamp: created,
  DateCompletedTimestamp: completed,
  ApplicationModeCode: 'Online',
  ApplicationType: 'Individual',
  Channel: 'Web',
  SubBrandName: 'Retail',
  PromoCode: 'SPRING',
  ExternalID: 'EXT-1',
  AccountNumber: '12345',
  InvestmentAmount: 1234567.89,
  Label: 'VIP',
  SystemLabel: 'Tagged',
  AdviserName: 'Olivia Owner',
  AssigneeDisplayName: 'Sam Staff',
  AssigneeUserId: null,
  PrimaryApplicantName: 'Jane Citizen',
  PrimaryApplicantPhone: '0400 000 000',
  Email: 'jane@example.test',
  ProductDisplayNameList: ['Cash', 'Shares', 'Bonds', 'Gold', 'Crypto'],
  ProductDictionary: [],
  BusinessRuleViolations: [],
  ApplicantApprovals: [],
  Requirements: [],
  OutstandingDocuments: [],
  ApplicationTaxInformations: [],
  ReportItems: [],
  ApiItems: [],
  Documents: [],
  InstanceName: 'demo',
  ...change,
});

describe('status styles (AM §4)', () => {
  const expected: Record<string, string> = { 'Documents pending': 'pending', Complete: 'success', Locked: 'locked' };
  it.each([...applicationStatuses, 'Something new', ''])('%s', (status) => {
    expect(detailStatusStyle(status)).toBe(expected[status] ?? 'plain');
  });
});

describe('approver display (AM §4)', () => {
  it.each([
    ['Approved', false, 'Approved', 'success'],
    ['Declined', false, 'Declined', 'failed'],
    ['Pending', false, 'Pending', 'pending'],
    ['', false, 'Pending', 'pending'],
    ['Sent', false, 'Pending', 'pending'],
    ['approved', false, 'Pending', 'pending'],
    ['Approved', true, 'Locked', 'locked'],
    ['Declined', true, 'Locked', 'locked'],
    ['Pending', true, 'Locked', 'locked'],
  ])('%s, MFA-locked %s: %s (%s)', (Status, IsMFALocked, text, style) => {
    const shown = approverDisplay({ Status, IsMFALocked });
    expect(shown.text).toBe(text);
    expect(shown.style).toBe(style);
    expect(shown.unlockable).toBe(IsMFALocked);
  });
});

describe('exception names (AM §8)', () => {
  it.each([
    ['CALIFORNIARESIDENT', 'California Resident'],
    ['BANKACCOUNTNAMEMATCH', 'Bank Account Name Mismatch'],
    ['HIGH_RISK_COUNTRY', 'High risk country'],
    ['duplicateEmailAddress', 'Duplicate email address'],
    // Issue 32: a run of capitals is split into its words where they are known, else kept whole.
    ['PEPMATCH', 'Pep match'],
    ['DUPLICATEAPPLICATION', 'Duplicate application'],
    ['UNDERAGEAPPLICANT', 'Underage applicant'],
    ['HIGH_RISKCOUNTRY', 'High risk country'],
    ['ZQXWVBNM', 'Zqxwvbnm'],
    ['DUPLICATEZQX', 'Duplicatezqx'],
    ['', ''],
    ['<b>x</b>', '<b>x</b>'],
  ])('%s is shown as %s', (name, shown) => expect(exceptionName(name)).toBe(shown));
});

describe('depersonalised never-complete is not completed (AM §4)', () => {
  it.each([
    // Status, LastApplicationStatus, IsComplete, completed date, shown complete
    ['Depersonalised', 'Primary edit', true, -1, false],
    ['Depersonalised', 'Primary edit', false, -1, false],
    ['Depersonalised', 'Complete', true, completed, true],
    ['Depersonalised', 'Primary edit', true, completed, true],
    ['Depersonalised', 'Complete', true, -1, true],
    ['Complete', 'Secondary review', true, completed, true],
    ['Primary edit', 'Adviser submit', false, -1, false],
    ['Locked', 'Primary submit', false, -1, false],
  ] as const)('%s (last %s, IsComplete %s, completed %s): %s', (Status, LastApplicationStatus, IsComplete, date, shown) => {
    expect(isShownComplete({ Status, LastApplicationStatus, IsComplete, DateCompletedTimestamp: date })).toBe(shown);
  });
});

describe('cards and controls by claim (AM §6), one claim at a time', () => {
  const cardClaims = {
    exceptions: 'exceptions.view',
    uploadDocuments: 'document.upload',
    downloadDocuments: 'document.download',
    vpn: 'vpnsummary.view',
    readComments: 'comments.view',
    addComment: 'comment.add',
    viewButton: 'app.view',
    editButton: 'app.edit',
    tax: 'app.taxdetails.viewsummary',
  } as const;
  it.each(Object.entries(cardClaims))('%s needs %s and nothing else', (card, claim) => {
    const without = detailCards(detail(), applicationManagerClaims.filter((held) => held !== claim), defaultDetailSettings);
    const only = detailCards(detail(), [claim], defaultDetailSettings);
    const all = detailCards(detail(), applicationManagerClaims, defaultDetailSettings);
    expect(without[card as keyof typeof without]).toBe(false);
    expect(only[card as keyof typeof only]).toBe(true);
    expect(all[card as keyof typeof all]).toBe(true);
  });
  it.each(['Depersonalised', 'Cancelled'])('%s: every claim, yet no upload and no new comment (issue 27 write rule)', (status) => {
    const cards = detailCards(detail({ Status: status }), applicationManagerClaims, defaultDetailSettings);
    expect(cards).toMatchObject({ uploadDocuments: false, addComment: false, readComments: true, comments: true });
    expect(detailCards(detail({ Status: 'Primary edit' }), applicationManagerClaims, defaultDetailSettings)).toMatchObject({ uploadDocuments: true, addComment: true });
  });
  it('no claims: no claim-gated card or control', () => {
    const cards = detailCards(detail(), [], defaultDetailSettings);
    expect(cards).toMatchObject({
      exceptions: false, documents: false, uploadDocuments: false, downloadDocuments: false, tax: false,
      taxSensitive: false, vpn: false, comments: false, viewButton: false, editButton: false,
    });
  });
  it.each([
    // claims, complete, ShowDocumentListBeforeCompletion, documents card
    [['document.view'], true, false, true],
    [['document.view'], false, false, false],
    [['document.view'], false, true, true],
    [[], true, true, false],
    [applicationManagerClaims.filter((claim) => claim !== 'document.view'), true, true, false],
  ] as const)('documents %j, complete %s, before-completion %s: %s', (claims, complete, before, shown) => {
    const cards = detailCards(
      detail({ IsComplete: complete, Status: complete ? 'Complete' : 'Primary edit' }),
      claims,
      { ...defaultDetailSettings, showDocumentListBeforeCompletion: before },
    );
    expect(cards.documents).toBe(shown);
  });
  it.each([
    // claims, complete, ShowDocumentListBeforeCompletion, status, where the upload is offered
    [applicationManagerClaims, true, false, 'Complete', 'documents'],
    [applicationManagerClaims, false, true, 'Primary edit', 'documents'],
    // Issue 32: the Documents card is hidden before completion, so Outstanding documents offers it.
    [applicationManagerClaims, false, false, 'Primary edit', 'outstanding'],
    [['document.upload'], true, true, 'Complete', 'outstanding'],
    [applicationManagerClaims.filter((claim) => claim !== 'document.upload'), false, false, 'Primary edit', undefined],
    [applicationManagerClaims, false, false, 'Depersonalised', undefined],
  ] as const)('upload %j, complete %s, before-completion %s, %s: offered in %s', (claims, complete, before, Status, where) => {
    const cards = detailCards(detail({ IsComplete: complete, Status }), claims, {
      ...defaultDetailSettings,
      showDocumentListBeforeCompletion: before,
    });
    expect(cards.uploadIn).toBe(where);
  });
  it.each([
    [false, 'requirements'],
    [true, 'evSummary'],
  ] as const)('ShowEVSummaryResult %s shows %s', (setting, card) => {
    expect(detailCards(detail(), [], { ...defaultDetailSettings, showEVSummaryResult: setting }).identification).toBe(card);
  });
  it.each([
    [true, false],
    [false, true],
  ])('complete %s: progress ring %s', (complete, ring) => {
    expect(detailCards(detail({ IsComplete: complete, Status: complete ? 'Complete' : 'Primary edit' }), [], defaultDetailSettings).progress).toBe(ring);
  });
  it('comments card with either comment claim', () => {
    expect(detailCards(detail(), ['comments.view'], defaultDetailSettings).comments).toBe(true);
    expect(detailCards(detail(), ['comment.add'], defaultDetailSettings).comments).toBe(true);
  });
});

describe('tax information (AM §6)', () => {
  it.each([
    // claims, Tfn as the server sends it, summary, TFN shown
    [['app.taxdetails.viewsummary'], '', 'Not Provided', undefined],
    [['app.taxdetails.viewsummary'], 'Provided', 'Provided', undefined],
    [['app.taxdetails.viewsummary', 'app.taxdetails.viewsensitive'], '123456782', 'Provided', '123456782'],
    [['app.taxdetails.viewsummary', 'app.taxdetails.viewsensitive'], '', 'Not Provided', undefined],
    // Should a number reach a caller without viewsensitive, it still does not show.
    [['app.taxdetails.viewsummary'], '123456782', 'Provided', undefined],
  ] as const)('%j, Tfn %j: %s, TFN %s', (claims, Tfn, summary, tfn) => {
    const shown = taxDisplay({ ApplicantName: 'Jane', Tfn }, claims);
    expect(shown.summary).toBe(summary);
    expect(shown.tfn).toBe(tfn);
  });
  it('viewsensitive alone does not reveal the card (it needs viewsummary)', () => {
    expect(detailCards(detail(), ['app.taxdetails.viewsensitive'], defaultDetailSettings)).toMatchObject({
      tax: false,
      taxSensitive: false,
    });
  });
});

describe('formats (AM §9)', () => {
  it('dates', () => {
    expect(formatDetailDate(created)).toBe('04 Mar 2026 09:05');
    expect(formatApprovalDate(created)).toBe('04/03/2026 09:05');
    expect(formatActivityDate(created)).toBe('4 Mar 2026 09:05');
    expect(formatDetailDate(-1)).toBe('');
    expect(formatApprovalDate(null)).toBe('');
  });
  it.each([
    [60 * 30, '30 minutes'],
    [3600 * 3, '3 hours'],
    [86400 * 2 + 3600 * 3, '2 days'],
    [86400 * 40, 'a month'],
  ])('Time to Complete of %i seconds reads %s', (seconds, text) => {
    expect(timeToComplete(created, created + seconds)).toBe(text);
  });
  it('Time to Complete is empty while not completed', () => {
    expect(timeToComplete(created, -1)).toBe('');
  });
  it('rows: always-shown rows, then only the configured optional rows in the spec order', () => {
    const rows = detailRows(detail(), ['Products', 'InvestmentAmount', 'TimeToComplete', 'Unknown']);
    expect(rows.map((row) => row.name)).toEqual([
      'Status', 'ApplicationType', 'Channel', 'Created', 'Completed', 'TimeToComplete', 'InvestmentAmount', 'Products',
    ]);
    expect(rows.find((row) => row.name === 'InvestmentAmount')).toMatchObject({ text: '1,234,568' });
    expect(rows.find((row) => row.name === 'TimeToComplete')).toMatchObject({ text: '2 days' });
    expect(rows.find((row) => row.name === 'Products')).toMatchObject({
      shown: ['Cash', 'Shares', 'Bonds'],
      rest: ['Gold', 'Crypto'],
    });
    expect(detailRows(detail(), []).map((row) => row.name)).toHaveLength(5);
  });
  it('a depersonalised never-complete application reads Not completed', () => {
    const rows = detailRows(detail({ Status: 'Depersonalised', LastApplicationStatus: 'Primary edit', DateCompletedTimestamp: -1 }), ['TimeToComplete']);
    expect(rows.find((row) => row.name === 'Completed')).toMatchObject({ text: 'Not completed' });
    expect(rows.find((row) => row.name === 'TimeToComplete')).toMatchObject({ text: '' });
  });
});

describe('comments (AM §5)', () => {
  it.each([
    ['', 'Empty comment cannot be saved.'],
    ['   \n ', 'Empty comment cannot be saved.'],
    ['ok', undefined],
    ['x'.repeat(500), undefined],
    [` ${'x'.repeat(500)} `, undefined],
    ['x'.repeat(501), 'Comment cannot be longer than 500 characters.'],
  ])('%j', (text, problem) => expect(commentProblem(text)).toBe(problem));
});

describe('accepted document types (AM §5)', () => {
  const accepted = ['pdf', '.JPG', 'png', 'docx'];
  it.each([
    ['statement.pdf', true],
    ['PHOTO.JPG', true],
    ['photo.jpg', true],
    ['scan.png', true],
    ['letter.docx', true],
    ['virus.exe', false],
    ['archive.pdf.exe', false],
    ['noextension', false],
    ['.pdf', false],
    ['trailingdot.', false],
  ])('%s: %s', (name, ok) => expect(isAcceptedDocument(name, accepted)).toBe(ok));
});

describe('activity feed order (AM §2)', () => {
  it('newest first, ties in their order', () => {
    const items = [
      { Activity: 'a', TimeStamp: 10 },
      { Activity: 'b', TimeStamp: 30 },
      { Activity: 'c', TimeStamp: 20 },
      { Activity: 'd', TimeStamp: 30 },
    ];
    expect(newestFirst(items).map((item) => item.Activity)).toEqual(['b', 'd', 'c', 'a']);
  });
});

describe('the way back to the list (AM §2)', () => {
  it.each([
    ['all', undefined, '/list/all'],
    ['my', undefined, '/list'],
    [null, undefined, '/list'],
    ['all', '/list/all/2?status=%5B%22Complete%22%5D&q=smith', '/list/all/2?status=%5B%22Complete%22%5D&q=smith'],
    ['all', '/list?q=smith', '/list/all'],
    ['my', '/list/3/50?sortBy=ClientName', '/list/3/50?sortBy=ClientName'],
    ['my', '/list/all?q=smith', '/list'],
    [null, '/list?q=x', '/list?q=x'],
    ['all', '/listing/all', '/list/all'],
  ] as const)('from=%s, last list %s: %s', (from, last, href) => expect(listReturnHref(from, last)).toBe(href));
});

describe('the edges of the detail rules', () => {
  it('shows the spec texts letter for letter (AM §2, §8)', () => {
    expect(loadingApplicationText).toBe('Loading application...');
    expect(applicationNotFoundText).toBe(
      'This application cannot be found. The application may no longer exist or you might not have permission to view it.',
    );
    expect(vpnUnavailableText).toBe('VPN detection results are not available for this application.');
    expect(noDocumentsText).toBe('No documents uploaded');
  });

  it('humanises unknown exception names word by word, and keeps a name without words as it is', () => {
    expect(exceptionName('addressMismatchFound')).toBe('Address mismatch found');
    expect(exceptionName('TAX-RESIDENCY.OTHER')).toBe('Tax residency other');
    expect(exceptionName('__')).toBe('__');
  });

  it('reads a depersonalised application without a completion date (0 or -1) as not completed, and any other as IsComplete says', () => {
    const never = { Status: 'Depersonalised', LastApplicationStatus: 'Primary edit', IsComplete: true };
    expect(isShownComplete({ ...never, DateCompletedTimestamp: 0 })).toBe(false);
    expect(isShownComplete({ ...never, DateCompletedTimestamp: -1 })).toBe(false);
    expect(isShownComplete({ ...never, Status: 'Primary edit', DateCompletedTimestamp: 0 })).toBe(true);
    expect(isShownComplete({ ...never, LastApplicationStatus: 'Complete', DateCompletedTimestamp: 0 })).toBe(true);
  });

  it('hides the documents of an incomplete application and shows requirements, by default', () => {
    const cards = detailCards(detail({ IsComplete: false }), ['document.view'], defaultDetailSettings);
    expect(cards).toMatchObject({ documents: false, identification: 'requirements' });
  });

  it('reveals the TFN with both tax claims', () => {
    expect(detailCards(detail(), ['app.taxdetails.viewsummary', 'app.taxdetails.viewsensitive'], defaultDetailSettings)).toMatchObject({
      tax: true,
      taxSensitive: true,
    });
  });

  it("shows nothing for the server's zero date", () => {
    expect(formatDetailDate(0)).toBe('');
    expect(formatActivityDate(0)).toBe('');
  });

  it('has no Time to Complete without both dates, or when completion comes before creation', () => {
    expect(timeToComplete(0, completed)).toBe('');
    expect(timeToComplete(created, 0)).toBe('');
    expect(timeToComplete(completed, created)).toBe('');
    expect(timeToComplete(created, created)).toBe('a few seconds');
  });

  it('labels every row of the Details card', () => {
    const rows = detailRows(detail(), ['Mode', 'Owner', 'PromoCode', 'ExternalID', 'AccountNumber', 'Assignee', 'Label', 'Tag', 'SubBrand']);
    expect(rows.map((row) => row.label)).toEqual([
      'Status', 'Application Type', 'Channel', 'Created', 'Completed',
      'Mode', 'Owner', 'Promo Code', 'External ID', 'Account Number', 'Assignee', 'Label', 'Tag', 'Sub-Brand',
    ]);
    expect(rows.every((row) => row.kind === 'text')).toBe(true);
    expect(detailRows(detail(), ['toString', 'constructor']).map((row) => row.name)).toHaveLength(5);
  });

  it('offers the file picker the accepted extensions with their dot, lower case', () => {
    expect(acceptAttribute(['pdf', '.JPG'])).toBe('.pdf,.jpg');
    expect(isAcceptedDocument('scan.jpg', ['..jpg'])).toBe(false);
  });

  it('draws the progress ring between 0 and 100, whole', () => {
    expect([progressPercent(-5), progressPercent(42.6), progressPercent(150)]).toEqual([0, 43, 100]);
  });

  it('meets a requirement only with result 0', () => {
    expect([isRequirementMet(0), isRequirementMet(1), isRequirementMet(-1)]).toEqual([true, false, false]);
  });
});

