import { assign, fromPromise, setup } from 'xstate';
import type { CompanyLookupResponse, GenerateReportResponse } from '../schemas/verifications.schema.ts';
import { acnDigits, formatAcnInput, isCompleteAcn } from '../domain/verifications.ts';
import { downloadReport, generateCompanyReport, verifyCompany } from '../services/verifications.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface AcnLookupContext {
  /** The ACN as shown: digits only, three groups of three (SUV §5). */
  acn: string;
  /** The ACN the last lookup asked about, shown in the result alert. */
  lookedUp: string;
  company: CompanyLookupResponse | undefined;
  reportLink: string;
  /** A report was generated: the list refreshes when the modal closes. */
  changed: boolean;
}

export type AcnLookupEvent =
  | { type: 'acn.change'; value: string }
  | { type: 'acn.verify' }
  | { type: 'lookup.retry' }
  | { type: 'report.generate' }
  | { type: 'report.download' }
  | { type: 'search.new' }
  | { type: 'dialog.close' };

export interface AcnLookupOutput {
  changed: boolean;
}

/**
 * SUV §2 Company Verification modal, §4 company modal transitions: enter an ACN → Verify → found or
 * not found. Found: generate the ASIC report → generated (Download Report, New Search) or the error
 * text. Not found: Retry or New Search. A download failure is swallowed (SUV §8), reported by the
 * service wrapper.
 */
export const acnLookupMachine = setup({
  types: typesOf<{ context: AcnLookupContext; events: AcnLookupEvent; output: AcnLookupOutput; tags: 'busy' }>(),
  actors: {
    verifyCompany: fromPromise<CompanyLookupResponse, { companyNumber: string }>(({ input }) => verifyCompany(input.companyNumber)),
    generateReport: fromPromise<GenerateReportResponse, CompanyLookupResponse>(({ input }) => generateCompanyReport(input.companyNumber, input.companyName)),
    downloadReport: fromPromise<void, { reportLink: string }>(({ input }) => downloadReport(input.reportLink, 'Company')),
  },
  guards: {
    isCompleteAcn: ({ context }) => isCompleteAcn(context.acn),
  },
  actions: {
    assignAcn: assign((_, params: { value: string }) => ({ acn: formatAcnInput(params.value) })),
    assignLookedUp: assign(({ context }) => ({ lookedUp: context.acn, company: undefined })),
    assignCompany: assign((_, params: { company: CompanyLookupResponse }) => ({ company: params.company })),
    assignReport: assign((_, params: { reportLink: string }) => ({ reportLink: params.reportLink, changed: true })),
    reset: assign({ acn: '', lookedUp: '', company: undefined, reportLink: '' }),
  },
}).createMachine({
  id: 'acnLookup',
  initial: 'entering',
  context: { acn: '', lookedUp: '', company: undefined, reportLink: '', changed: false },
  output: ({ context }) => ({ changed: context.changed }),
  states: {
    entering: {
      description: "'Enter the ACN below to verify if a company exists.', the ACN field, Verify (enabled for three groups of three digits) and Cancel",
      on: {
        'acn.change': { actions: { type: 'assignAcn', params: ({ event }) => ({ value: event.value }) } },
        'acn.verify': { guard: 'isCompleteAcn', target: 'verifying' },
        'dialog.close': { target: 'closed' },
      },
    },
    verifying: {
      description: 'The ACN is looked up; Verify shows progress',
      tags: ['busy'],
      entry: 'assignLookedUp',
      invoke: {
        id: 'verifyCompany',
        src: 'verifyCompany',
        input: ({ context }) => ({ companyNumber: acnDigits(context.acn) }),
        onDone: { target: 'found', actions: { type: 'assignCompany', params: ({ event }) => ({ company: event.output }) } },
        // SUV §8: any non-ok answer shows the not-found result.
        onError: { target: 'notFound' },
      },
    },
    found: {
      description: "Success alert 'A company was found that matches the ACN' with the ACN and name; 'generate asic report' and Cancel",
      on: { 'report.generate': { target: 'generating' }, 'dialog.close': { target: 'closed' } },
    },
    notFound: {
      description: "Danger alert 'No Company was found that matches the ACN.' with the ACN and 'Not Found'; Retry, Cancel and New Search",
      on: {
        'lookup.retry': { target: 'verifying' },
        'search.new': { target: 'entering', actions: 'reset' },
        'dialog.close': { target: 'closed' },
      },
    },
    generating: {
      description: 'The registry report is being generated',
      tags: ['busy'],
      invoke: {
        id: 'generateReport',
        src: 'generateReport',
        input: ({ context }) => context.company ?? { companyNumber: acnDigits(context.lookedUp), companyName: '' },
        onDone: { target: 'generated', actions: { type: 'assignReport', params: ({ event }) => ({ reportLink: event.output.reportLink }) } },
        onError: { target: 'generateFailed' },
      },
    },
    generated: {
      description: "'The ASIC report has been generated successfully.'; Download Report and New Search",
      initial: 'idle',
      states: {
        idle: {
          description: 'Download Report is ready',
          on: { 'report.download': { target: 'downloading' } },
        },
        downloading: {
          description: 'The report is downloading (a failure is swallowed)',
          tags: ['busy'],
          invoke: {
            id: 'downloadReport',
            src: 'downloadReport',
            input: ({ context }) => ({ reportLink: context.reportLink }),
            onDone: { target: 'idle' },
            onError: { target: 'idle' },
          },
        },
      },
      on: { 'search.new': { target: 'entering', actions: 'reset' }, 'dialog.close': { target: 'closed' } },
    },
    generateFailed: {
      description: "'There was an error when generating the ASIC report.'; New Search and Cancel",
      on: { 'search.new': { target: 'entering', actions: 'reset' }, 'dialog.close': { target: 'closed' } },
    },
    closed: { type: 'final', description: 'The modal is gone; the list refreshes when a report was generated' },
  },
});

export const statechartLabels = {
  purpose: 'Look a company up by its ACN and generate its registry report (Company Verification modal)',
  spec: ['SUV §2', 'SUV §4', 'SUV §5', 'SUV §7', 'SUV §8'],
  actors: {
    verifyCompany: { does: 'Looks the ACN up (POST /company/verify)', done: 'company found', failed: 'not found (any non-ok answer)' },
    generateReport: { does: 'Generates the ASIC report (POST /company/generate-report)', done: 'report generated', failed: 'report failed' },
    downloadReport: { does: 'Downloads the report PDF', done: 'downloaded', failed: 'download failed (swallowed)' },
  },
  guards: { isCompleteAcn: 'the ACN is three groups of three digits' },
  events: {
    'acn.change': 'the ACN typed',
    'acn.verify': 'Verify pressed',
    'lookup.retry': 'Retry pressed',
    'report.generate': "'generate asic report' pressed",
    'report.download': 'Download Report pressed',
    'search.new': 'New Search pressed',
    'dialog.close': 'Cancel or Escape',
  },
} satisfies MachineLabels<typeof acnLookupMachine>;
