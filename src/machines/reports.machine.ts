import { createActorContext } from '@xstate/react';
import { assign, fromPromise, setup } from 'xstate';
import { checkRange, todayIn } from '../domain/report-periods.ts';
import type { ReportSummary } from '../schemas/reports.schema.ts';
import { ReportRangeRefused, reportSummary, type ReportRange } from '../services/reports.service.ts';
import type { MachineLabels } from './machine-labels.ts';
import { typesOf } from './machine-types.ts';

export interface ReportsContext {
  /** The range in the address ('' for the default). */
  range: ReportRange;
  /** The figures last loaded (kept while a new range loads, so the charts do not jump). */
  summary: ReportSummary | undefined;
  /** Why the range cannot be reported ('to: must not be before from (…)'): the portal's check or the server's 400. */
  problem: string | undefined;
}

export type ReportsEvent = { type: 'range.change'; range: ReportRange } | { type: 'report.retry' };

/**
 * The tenant's day as the portal knows it, once figures have come: the later of the server's day
 * then and this browser's clock in the tenant's zone, so neither a page left open overnight nor a
 * slow clock refuses today. Before that the server alone judges the future.
 */
export const knownToday = (summary: ReportSummary | undefined): string | undefined => {
  if (!summary) return undefined;
  const browser = todayIn(summary.TimeZone);
  return browser > summary.Today ? browser : summary.Today;
};

/** What the shared rule (src/domain/report-periods.ts, the server's own) says is wrong with a range. */
const problemOf = (range: ReportRange, summary: ReportSummary | undefined): string | undefined => {
  const problem = checkRange(range, knownToday(summary));
  return problem && `${problem.param}: ${problem.message}`;
};

/**
 * The Reports page (SUV §2, issue 30): loads the figures for the address's range, keeps them while
 * another range loads, and offers Retry when loading fails. A range that cannot be reported (the
 * shared rule, checked here first and by the server's 400) shows its reason and no Retry: asking
 * again cannot succeed (issue 39 point 5). The charts are drawn about 250 ms after the page
 * appears (SUV §9): a timer of its own, beside the loading.
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
    assignRange: assign(({ context, event }) => ({
      range: event.type === 'range.change' ? event.range : context.range,
      problem: undefined,
    })),
    assignSummary: assign((_, params: { summary: ReportSummary }) => ({ summary: params.summary })),
    assignRangeProblem: assign(({ context }) => ({ problem: problemOf(context.range, context.summary) })),
    assignRefusal: assign((_, params: { error: unknown }) => ({
      problem: params.error instanceof ReportRangeRefused ? params.error.reason : undefined,
    })),
  },
  guards: {
    /** The range asked for (the event's, else the address's at start) breaks the shared rule. */
    isRangeInvalid: ({ context, event }) =>
      problemOf(event.type === 'range.change' ? event.range : context.range, context.summary) !== undefined,
    isRangeRefused: (_, params: { error: unknown }) => params.error instanceof ReportRangeRefused,
  },
  delays: {
    /** SUV §2, §9: the charts load about 250 ms after the page. */
    chartsDelay: 250,
  },
}).createMachine({
  id: 'reports',
  type: 'parallel',
  context: ({ input }) => ({ range: input.range, summary: undefined, problem: undefined }),
  states: {
    data: {
      description: 'The figures of the range in the address',
      initial: 'checking',
      states: {
        checking: {
          description:
            'The range in the address (at start, or after a failure or a refusal) is checked against the shared rule before anything is asked',
          always: [
            { guard: 'isRangeInvalid', target: 'invalid', actions: 'assignRangeProblem' },
            { target: 'loading' },
          ],
        },
        loading: {
          description: 'The figures are loading: each chart shows its placeholder',
          tags: ['busy'],
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            input: ({ context }) => context.range,
            onDone: {
              target: 'loaded',
              actions: { type: 'assignSummary', params: ({ event }) => ({ summary: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isRangeRefused', params: ({ event }) => ({ error: event.error }) },
                target: 'invalid',
                actions: { type: 'assignRefusal', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'failed' },
            ],
          },
          on: {
            'range.change': [
              { guard: 'isRangeInvalid', target: 'invalid', actions: ['assignRange', 'assignRangeProblem'] },
              { target: 'loading', reenter: true, actions: 'assignRange' },
            ],
          },
        },
        loaded: {
          description: 'The five charts (or their tables) show the figures of the range',
          on: {
            'range.change': [
              { guard: 'isRangeInvalid', target: 'invalid', actions: ['assignRange', 'assignRangeProblem'] },
              { target: 'refreshing', actions: 'assignRange' },
            ],
          },
        },
        refreshing: {
          description: 'Another range is loading: the charts keep the figures they show until it arrives',
          tags: ['busy'],
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            input: ({ context }) => context.range,
            onDone: {
              target: 'loaded',
              actions: { type: 'assignSummary', params: ({ event }) => ({ summary: event.output }) },
            },
            onError: [
              {
                guard: { type: 'isRangeRefused', params: ({ event }) => ({ error: event.error }) },
                target: 'invalid',
                actions: { type: 'assignRefusal', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'failed' },
            ],
          },
          on: {
            'range.change': [
              { guard: 'isRangeInvalid', target: 'invalid', actions: ['assignRange', 'assignRangeProblem'] },
              { target: 'refreshing', reenter: true, actions: 'assignRange' },
            ],
          },
        },
        failed: {
          description: 'The figures could not be loaded: a message and Retry',
          on: {
            'report.retry': { target: 'loading' },
            'range.change': { target: 'checking', actions: 'assignRange' },
          },
        },
        invalid: {
          description:
            "The range cannot be reported: the reason (the portal's check or the server's), no charts and no Retry",
          on: {
            'range.change': { target: 'checking', actions: 'assignRange' },
          },
        },
      },
    },
    charts: {
      description: 'When the charts may be drawn (SUV §9: about 250 ms after the page)',
      initial: 'waiting',
      states: {
        waiting: {
          description:
            'The page has just appeared: the charts wait their 250 ms behind placeholders of their size',
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
  purpose:
    'Reports page: loads the figures of the five charts for the date range in the address, with Retry; a range that cannot be reported shows the reason, without Retry; charts appear about 250 ms after the page.',
  spec: ['SUV §2', 'SUV §6', 'SUV §9', 'issue 30', 'issue 39'],
  actors: {
    loadSummary: {
      does: 'Loads the report figures for the range',
      done: 'figures loaded',
      failed: 'figures could not be loaded',
    },
  },
  guards: {
    isRangeInvalid: 'the range breaks the range rule',
    isRangeRefused: 'the server refused the range (400)',
  },
  delays: { chartsDelay: 'the charts delay' },
  events: { 'range.change': 'the date range in the address changed', 'report.retry': 'Retry pressed' },
} satisfies MachineLabels<typeof reportsMachine>;
