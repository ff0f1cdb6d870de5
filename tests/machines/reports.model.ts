import { expect } from 'vitest';
import { fromPromise } from 'xstate';
import { reportsMachine } from '../../src/machines/reports.machine.ts';
import type { ReportSummary } from '../../src/schemas/reports.schema.ts';
import type { ReportRange } from '../../src/services/reports.service.ts';
import { defineMachineModel } from './machine-model.ts';

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

export default defineMachineModel({
  name: 'reports',
  machine: reportsMachine.provide({
    actors: { loadSummary: fromPromise<ReportSummary, ReportRange>(() => new Promise(() => {})) },
  }),
  input: { range: { from: '', to: '' } },
  preconditions: 'The Reports page opened by a user with reports.login, no range in the address',
  events: [
    { type: 'xstate.done.actor.loadSummary', output: figures },
    { type: 'xstate.error.actor.loadSummary', error: new Error('503 Service Unavailable') },
    { type: 'range.change', range: january },
    { type: 'report.retry' },
    { type: 'xstate.after.chartsDelay.reports.charts.waiting' },
  ],
  expectations: {
    states: {
      'data.loading': (snapshot) => expect(snapshot.hasTag('busy')).toBe(true),
      'data.loaded': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(false);
        expect(snapshot.context.summary).toEqual(figures);
      },
      // The figures already shown stay while another range loads: the charts do not jump.
      'data.refreshing': (snapshot) => {
        expect(snapshot.hasTag('busy')).toBe(true);
        expect(snapshot.context.summary).toEqual(figures);
      },
      'data.failed': (snapshot) => expect(snapshot.hasTag('busy')).toBe(false),
      'charts.waiting': (snapshot) => expect(snapshot.matches({ charts: 'shown' })).toBe(false),
      'charts.shown': (snapshot) => expect(snapshot.matches({ charts: 'waiting' })).toBe(false),
    },
    transitions: {
      'data.loading + xstate.done.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'loaded' })).toBe(true),
      'data.loading + xstate.error.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'failed' })).toBe(true),
      // A new range while loading: that range is asked for instead.
      'data.loading + range.change': ({ after, started }) => {
        expect(after.matches({ data: 'loading' })).toBe(true);
        expect(started.loadSummary).toEqual(january);
      },
      'data.loaded + range.change': ({ after, started }) => {
        expect(after.matches({ data: 'refreshing' })).toBe(true);
        expect(started.loadSummary).toEqual(january);
      },
      'data.refreshing + xstate.done.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'loaded' })).toBe(true),
      'data.refreshing + xstate.error.actor.loadSummary': ({ after }) => expect(after.matches({ data: 'failed' })).toBe(true),
      'data.refreshing + range.change': ({ after, started }) => {
        expect(after.matches({ data: 'refreshing' })).toBe(true);
        expect(started.loadSummary).toEqual(january);
      },
      'data.failed + report.retry': ({ after, started }) => {
        expect(after.matches({ data: 'loading' })).toBe(true);
        expect(started.loadSummary).toEqual(after.context.range);
      },
      'data.failed + range.change': ({ after, started }) => {
        expect(after.matches({ data: 'loading' })).toBe(true);
        expect(started.loadSummary).toEqual(january);
      },
      // SUV §9: 250 ms after the page, the charts may be drawn.
      'charts.waiting + after chartsDelay': ({ after }) => expect(after.matches({ charts: 'shown' })).toBe(true),
    },
  },
});
