import { fromPromise, setup } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { MachineLabels } from '../../src/machines/machine-labels.ts';
import {
  checkLabels,
  formatDuration,
  MachineWording,
  type LabelsData,
} from '../../scripts/statecharts/labels.ts';
import { listTransitions } from '../../scripts/statecharts/structure.ts';
import { statechartLabels, trafficMachine } from '../machines/fixtures/traffic.fixture.ts';

/** What `npm run statecharts` prints for a machine, and what it refuses. */
const wordingOf = (labels: LabelsData | undefined) =>
  new MachineWording('traffic', trafficMachine, labels, 'trafficMachine');
const problems = (labels: LabelsData | undefined) =>
  checkLabels(wordingOf(labels), listTransitions(trafficMachine)).join('\n');

describe('statechart labels', () => {
  it('accepts a machine whose labels describe everything it names', () => {
    expect(problems(statechartLabels)).toBe('');
  });

  it('names the machine, the file and every item when the labels are missing, with the lines to add', () => {
    const message = problems(undefined);
    expect(message).toContain(
      'traffic: src/machines/traffic.machine.ts has no `export const statechartLabels`',
    );
    expect(message).toContain('satisfies MachineLabels<typeof trafficMachine>');
    expect(message).toContain("checkController: { does: '…', done: '…', failed: '…' },");
    expect(message).toContain(`isHealthy: '<the condition, read after "if">',`);
    expect(message).toContain(`canRetry: '<the condition, read after "if">',`);
    expect(message).toContain("greenTime: '<what the wait is>',");
    expect(message).toContain("'power.restore': '<what happened, in words>',");
  });

  it('names each item one machine leaves undescribed, and only those', () => {
    const { canRetry: _canRetry, ...guards } = statechartLabels.guards;
    const { 'power.fail': _powerFail, ...events } = statechartLabels.events;
    const message = problems({ ...statechartLabels, guards, events });
    expect(message).toContain(
      "traffic: src/machines/traffic.machine.ts does not describe guard 'canRetry', event 'power.fail'.",
    );
    expect(message).not.toContain('isHealthy');
    expect(message).not.toContain('checkController');
  });

  it('treats blank words as missing', () => {
    const message = problems({
      ...statechartLabels,
      purpose: ' ',
      delays: { ...statechartLabels.delays, greenTime: '' },
    });
    expect(message).toContain("does not describe purpose, delay 'greenTime'");
  });

  it('asks for words for a child spawned under an id that is not an actor name, and a title for each parallel region', () => {
    const machine = setup({
      actors: { downloadDocument: fromPromise(async () => undefined) },
      actions: {},
    }).createMachine({
      id: 'detail',
      type: 'parallel',
      states: {
        files: {
          initial: 'idle',
          states: { idle: { on: { 'xstate.done.actor.download': { target: 'idle' } } } },
        },
        notes: { description: 'Notes', initial: 'idle', states: { idle: {} } },
      },
    });
    const wording = new MachineWording(
      'detail',
      machine,
      { purpose: 'x', spec: ['AM §1'], actors: { downloadDocument: { does: 'Downloads' } } },
      'detailMachine',
    );
    const message = checkLabels(wording, listTransitions(machine)).join('\n');
    expect(message).toContain("child actor 'download'");
    expect(message).toContain("children: {\n      download: { does: '…', done: '…', failed: '…' },");
    expect(message).toContain("parallel region 'files'");
    expect(message).not.toContain("parallel region 'notes'");
  });

  it('words transitions: results of tasks, conditions, otherwise, timers with their value', () => {
    const wording = wordingOf(statechartLabels);
    const [healthy, unhealthy, unreachable, , , green, , red] = listTransitions(trafficMachine);
    if (!healthy || !unhealthy || !unreachable || !green || !red) throw new Error('fixture changed');
    expect(wording.transitionLines(healthy)).toEqual(['self-test finished', 'if the controller is healthy']);
    expect(wording.transitionLines(unhealthy)).toEqual(['self-test finished', 'otherwise']);
    expect(wording.transitionLines(unreachable)).toEqual(['controller unreachable']);
    expect(wording.transitionLines(green)).toEqual(['after 30 s']);
    expect(wording.transitionLines(red)).toEqual(['after 5 s']);
    expect(wording.technical(healthy)).toBe('xstate.done.actor.checkController [isHealthy]');
    expect(wording.event({ type: 'xstate.after.greenTime.traffic.running.green' }).text).toBe('after 30 s');
    expect(wording.event({ type: 'power.fail' }).text).toBe('the power failed');
  });

  it('falls back to "<does> — done/failed" for an actor without its own result words', () => {
    const wording = wordingOf({
      ...statechartLabels,
      actors: { checkController: { does: 'Controller self-test' } },
    });
    expect(wording.event('xstate.done.actor.checkController').text).toBe('Controller self-test — done');
    expect(wording.event('xstate.error.actor.checkController').text).toBe('Controller self-test — failed');
  });

  it('prints delays the way the spec gives them', () => {
    expect(formatDuration(5000)).toBe('5 s');
    expect(formatDuration(2000)).toBe('2 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(300)).toBe('300 ms');
    expect(formatDuration(1500)).toBe('1.5 s');
  });

  it('makes a missing or stale description a type error', () => {
    const { canRetry: _canRetry, ...guards } = statechartLabels.guards;
    // @ts-expect-error -- canRetry is a guard of the machine without words
    const missing: MachineLabels<typeof trafficMachine> = { ...statechartLabels, guards };
    const stale = {
      ...statechartLabels,
      // @ts-expect-error -- the machine has no guard isBroken
      guards: { ...statechartLabels.guards, isBroken: 'the light is broken' },
    } satisfies MachineLabels<typeof trafficMachine>;
    expect(missing.guards).not.toHaveProperty('canRetry');
    expect(stale.guards).toHaveProperty('isBroken');
  });
});
