import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import type { ReportSummary } from '../schemas/reports.schema.ts';
import { reportSummary, type ReportRange } from '../services/reports.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface ReportsContext {
  /** The range in the address ('' for the default). */
  range: ReportRange;
  /** The figures last loaded (kept while a new range loads, so the charts do not jump). */
  summary: ReportSummary | undefined;
}

export type ReportsEvent = { type: 'range.change'; range: ReportRange } | { type: 'report.retry' };

/**
 * The Reports page (SUV §2, issue 30): loads the figures for the address's range, keeps them while
 * another range loads, and offers Retry when loading fails. The charts are drawn about 250 ms after
 * the page appears (SUV §9): a timer of its own, beside the loading.
 */
export const reportsMachine = setup({
  types: typesOf<{
    context: ReportsContext;
    events: ReportsEvent;
    input: { range: ReportRange };
    tags: 'busy';
  }>(),
  actors: {
    loadSummary: fromPromise<ReportSummary, ReportRange>(({ input }) => reportSummary(input)),
  },
  actions: {
    assignRange: assign((_, params: { range: ReportRange }) => ({ range: params.range })),
    assignSummary: assign((_, params: { summary: ReportSummary }) => ({ summary: params.summary })),
  },
  delays: {
    /** SUV §2, §9: the charts load about 250 ms after the page. */
    chartsDelay: 250,
  },
}).createMachine({
  id: 'reports',
  type: 'parallel',
  context: ({ input }) => ({ range: input.range, summary: undefined }),
  states: {
    data: {
      description: 'The figures of the range in the address',
      initial: 'loading',
      states: {
        loading: {
          description: 'The figures are loading: each chart shows its placeholder',
          tags: ['busy'],
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            input: ({ context }) => context.range,
            onDone: { target: 'loaded', actions: { type: 'assignSummary', params: ({ event }) => ({ summary: event.output }) } },
            onError: { target: 'failed' },
          },
          on: {
            'range.change': { target: 'loading', reenter: true, actions: { type: 'assignRange', params: ({ event }) => ({ range: event.range }) } },
          },
        },
        loaded: {
          description: 'The five charts (or their tables) show the figures of the range',
          on: {
            'range.change': { target: 'refreshing', actions: { type: 'assignRange', params: ({ event }) => ({ range: event.range }) } },
          },
        },
        refreshing: {
          description: 'Another range is loading: the charts keep the figures they show until it arrives',
          tags: ['busy'],
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            input: ({ context }) => context.range,
            onDone: { target: 'loaded', actions: { type: 'assignSummary', params: ({ event }) => ({ summary: event.output }) } },
            onError: { target: 'failed' },
          },
          on: {
            'range.change': { target: 'refreshing', reenter: true, actions: { type: 'assignRange', params: ({ event }) => ({ range: event.range }) } },
          },
        },
        failed: {
          description: 'The figures could not be loaded: a message and Retry',
          on: {
            'report.retry': { target: 'loading' },
            'range.change': { target: 'loading', actions: { type: 'assignRange', params: ({ event }) => ({ range: event.range }) } },
          },
        },
      },
    },
    charts: {
      description: 'When the charts may be drawn (SUV §9: about 250 ms after the page)',
      initial: 'waiting',
      states: {
        waiting: {
          description: 'The page has just appeared: the charts wait their 250 ms behind placeholders of their size',
          after: { chartsDelay: { target: 'shown' } },
        },
        shown: { description: 'The charts may be drawn (as soon as their figures are there)' },
      },
    },
  },
});

export const ReportsContext = createActorContext(reportsMachine);

/** The words the diagrams and QA plans print (docs/testing.md, "Statechart labels"). */
export const statechartLabels = {
  purpose: 'Reports page: loads the figures of the five charts for the date range in the address, with Retry; charts appear about 250 ms after the page.',
  spec: ['SUV §2', 'SUV §6', 'SUV §9', 'issue 30'],
  actors: {
    loadSummary: { does: 'Loads the report figures for the range', done: 'figures loaded', failed: 'figures could not be loaded' },
  },
  guards: {},
  delays: { chartsDelay: 'the charts delay' },
  events: { 'range.change': 'the date range in the address changed', 'report.retry': 'Retry pressed' },
} satisfies MachineLabels<typeof reportsMachine>;
