import { assign, fromPromise, setup } from 'xstate';
import type { VerificationDetail } from '../schemas/verifications.schema.ts';
import { downloadReport, getVerificationDetail } from '../services/verifications.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface VerificationDetailsContext {
  /** The numeric id (the address's id without its first character). */
  id: string;
  detail: VerificationDetail | undefined;
}

export type VerificationDetailsEvent = { type: 'report.download' };

/**
 * SUV §2 Verification details page: 'Loading Verification Details' → the record, or 'Failed to load
 * verification details' (SUV §8). The report downloads from the Documents card; a failure is swallowed.
 */
export const verificationDetailsMachine = setup({
  types: typesOf<{ context: VerificationDetailsContext; events: VerificationDetailsEvent; input: { id: string }; tags: 'busy' }>(),
  actors: {
    loadDetail: fromPromise<VerificationDetail, { id: string }>(({ input }) => getVerificationDetail(input.id)),
    downloadReport: fromPromise<void, { reportLink: string; company: boolean }>(({ input }) => downloadReport(input.reportLink, input.company ? 'Company' : 'Individual')),
  },
  actions: {
    assignDetail: assign((_, params: { detail: VerificationDetail }) => ({ detail: params.detail })),
  },
}).createMachine({
  id: 'verificationDetails',
  initial: 'loading',
  context: ({ input }) => ({ id: input.id, detail: undefined }),
  states: {
    loading: {
      description: "'Loading Verification Details'",
      tags: ['busy'],
      invoke: {
        id: 'loadDetail',
        src: 'loadDetail',
        input: ({ context }) => ({ id: context.id }),
        onDone: { target: 'loaded', actions: { type: 'assignDetail', params: ({ event }) => ({ detail: event.output }) } },
        onError: { target: 'failed' },
      },
    },
    loaded: {
      description: 'Header, Details card; when finished the Verification Status and Documents cards; Back',
      initial: 'idle',
      states: {
        idle: { description: 'The report link is ready', on: { 'report.download': { target: 'downloading' } } },
        downloading: {
          description: 'The report downloads (a failure is swallowed)',
          tags: ['busy'],
          invoke: {
            id: 'downloadReport',
            src: 'downloadReport',
            input: ({ context }) => ({ reportLink: context.detail?.reportLink ?? '', company: context.detail?.requestType === 'Company' }),
            onDone: { target: 'idle' },
            onError: { target: 'idle' },
          },
        },
      },
    },
    failed: { description: "Red alert 'Failed to load verification details'; Back" },
  },
});

export const statechartLabels = {
  purpose: 'Show one verification record (Verification details page)',
  spec: ['SUV §2', 'SUV §7', 'SUV §8', 'SUV §9'],
  actors: {
    loadDetail: { does: 'Loads the record (GET /individual/verifications/details/{id})', done: 'record loaded', failed: 'record failed to load' },
    downloadReport: { does: 'Downloads the report PDF', done: 'downloaded', failed: 'download failed (swallowed)' },
  },
  events: { 'report.download': 'the report link pressed' },
} satisfies MachineLabels<typeof verificationDetailsMachine>;
