import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { reportsMachine } from '../../src/machines/reports.machine.ts';
import type { ReportSummary } from '../../src/schemas/reports.schema.ts';
import { ReportRangeRefused, type ReportRange } from '../../src/services/reports.service.ts';
import { defineMachineModel, type TransitionEffects } from './machine-model.ts';

const figures: ReportSummary = {
  From: '2025-12-01',
  To: '2026-11-27',
  Today: '2026-11-27',
  TimeZone: 'Australia/Sydney',
  List: 'all',
  Initiated: [{ Category: 'Joint', Types: ['Joint'], Complete: 3, NotComplete: 4 }],
  CompletedByMonth: [{ Label: 'Nov 2026', From: '2026-11-01', To: '2026-11-27', Count: 3, Partial: true }],
  CompletedByQuarter: [{ Label: 'Q4 2026', From: '2026-10-01', To: '2026-11-27', Count: 3, Partial: true }],
  TimeToComplete: { Buckets: [{ Label: '0-0.5h', Count: 3 }], MedianSeconds: 600, Percentile90Seconds: 1200 },
  LastSections: [{ Section: 'Identification', Count: 4 }],
};
const january: ReportRange = { from: '2026-01-01', to: '2026-01-31' };
/** To before from: the portal knows without asking that this cannot be reported (issue 39 point 5). */
const backwards: ReportRange = { from: '2026-03-01', to: '2026-02-01' };
const backwardsReason = 'to: must not be before from (2026-03-01)';
/** What only the server knows: its 400's message. */
const futureReason = 'to: must not be after today (2026-11-29)';

export default defineMachineModel({
  name: 'reports',
  machine: reportsMachine.provide({
    actors: { loadSummary: fromPromise<ReportSummary, ReportRange>(() => new Promise(() => {})) },
  }),
  input: { range: { from: '', to: '' } },
  preconditions: 'The Reports page opened by a user with reports.login, no range in the address',
  variants: [{ name: 'to before from in the address', input: { range: backwards }, events: ['range.change'] }],
  events: [
    { type: 'xstate.done.actor.loadSummary', output: figures },
    { type: 'xstate.error.actor.loadSummary', error: new Error('503 Service Unavailable') },
    { type: 'xstate.error.actor.loadSummary', error: new ReportRangeRefused(futureReason) },
    { type: 'range.change', range: january },
    { type: 'range.change', range: backwards },
    { type: 'report.retry' },
    { type: 'xstate.after.chartsDelay.reports.charts.waiting' },
  ],
  expectations: {
    states: {
      // Passed through at once: the range in the address is checked before anything is asked.
      'data.checking': (snapshot) => expect(snapshot.matches({ data: 'checking' })).toBe(false),
      'data.loading': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.problem).toBeUndefined();
      },
      'data.loaded': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.summary).toEqual(figures);
        expect(snapshot.context.problem).toBeUndefined();
      },
      // The figures already shown stay while another range loads: the charts do not jump.
      'data.refreshing': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.summary).toEqual(figures);
      },
      'data.failed': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.problem).toBeUndefined();
      },
      // A range that cannot be reported: its reason, nothing loading, nothing to retry.
      'data.invalid': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect([backwardsReason, futureReason]).toContain(snapshot.context.problem);
        expect(snapshot.can({ type: 'report.retry' })).toBe(false);
        expect(snapshot.children.loadSummary).toBeUndefined();
      },
      'charts.waiting': (snapshot) => expect(snapshot.matches({ charts: 'shown' })).toBe(false),
      'charts.shown': (snapshot) => expect(snapshot.matches({ charts: 'waiting' })).toBe(false),
    },
    transitions: {
      // The address's range: asked for when it can succeed, else its reason at once.
      'data.checking + always': ({ after, started }) => {
        if (isBackwards(after.context.range)) expectRefusedInPortal({ after, started });
        else {
          expect(after.matches({ data: 'loading' })).toBe(true);
          // The default range at start, or the range that came after a failure or a refusal.
          expect([{ from: '', to: '' }, january]).toContainEqual(started.loadSummary);
          expect(started.loadSummary).toEqual(after.context.range);
        }
      },
      'data.loading + xstate.done.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'loaded' })).toBe(true),
      'data.loading + xstate.error.actor.loadSummary': expectFailure,
      // A new range while loading: that range is asked for instead.
      'data.loading + range.change': (effects) => expectRangeChange(effects, 'loading'),
      'data.loaded + range.change': (effects) => expectRangeChange(effects, 'refreshing'),
      'data.refreshing + xstate.done.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'loaded' })).toBe(true),
      'data.refreshing + xstate.error.actor.loadSummary': expectFailure,
      'data.refreshing + range.change': (effects) => expectRangeChange(effects, 'refreshing'),
      'data.failed + report.retry': ({ after, started }) => {
        expect(after.matches({ data: 'loading' })).toBe(true);
        expect(started.loadSummary).toEqual(after.context.range);
      },
      'data.failed + range.change': (effects) => expectRangeChange(effects, 'loading'),
      // Only another range leaves a refused one.
      'data.invalid + range.change': (effects) => expectRangeChange(effects, 'loading'),
      // SUV §9: 250 ms after the page, the charts may be drawn.
      'charts.waiting + after chartsDelay': ({ after }) => expect(after.matches({ charts: 'shown' })).toBe(true),
    },
  },
});

function isBackwards(range: unknown): boolean {
  return JSON.stringify(range) === JSON.stringify(backwards);
}

/** Refused in the portal: the reason shown, nothing asked of the server. */
function expectRefusedInPortal({ after, started }: Pick<TransitionEffects, 'after' | 'started'>) {
  expect(after.matches({ data: 'invalid' })).toBe(true);
  expect(after.context.range).toEqual(backwards);
  expect(after.context.problem).toBe(backwardsReason);
  expect(started).toEqual({});
}

function expectRangeChange(effects: TransitionEffects, target: 'loading' | 'refreshing') {
  if (isBackwards(effects.event['range'])) return expectRefusedInPortal(effects);
  expect(effects.after.matches({ data: target })).toBe(true);
  expect(effects.started.loadSummary).toEqual(january);
  expect(effects.after.context.problem).toBeUndefined();
}

/** The server's 400 is a reason, shown without Retry; any other failure offers Retry. */
function expectFailure({ event, after }: TransitionEffects) {
  if (event['error'] instanceof ReportRangeRefused) {
    expect(after.matches({ data: 'invalid' })).toBe(true);
    expect(after.context.problem).toBe(futureReason);
  } else {
    expect(after.matches({ data: 'failed' })).toBe(true);
    expect(after.can({ type: 'report.retry' })).toBe(true);
  }
}
