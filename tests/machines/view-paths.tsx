import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AnyActorRef, AnyMachineSnapshot, AnyStateMachine } from 'xstate';
import { pathTitle, type PlanPath } from '../../scripts/statecharts/graph.ts';
import type { MachineModel } from './machine-model.ts';
import { planOrFailingTest, stateKey } from './path-tests.ts';

/** As in the path tests: timers never fire; the path delivers `xstate.after.*` itself. */
const stoppedClock = { setTimeout: () => 0, clearTimeout: () => {} };

/** What a view test gives the view: the model's machine, the path's input and the stopped clock. */
export interface MountOptions {
  machine: AnyStateMachine;
  input: unknown;
  clock: typeof stoppedClock;
}

/** Renders the machine's view on a running actor of `machine` and returns that actor. */
export type Mount = (options: MountOptions) => AnyActorRef;

/**
 * Runs the model's paths to every state against the rendered view: the machine's actor (with the
 * model's inert actors) drives the real component, each step is sent inside `act`, and after each
 * step the model's `view` expectations of every active state are checked on the screen.
 */
export function describeViewPaths(model: MachineModel, mount: Mount): void {
  const plan = planOrFailingTest(model, it);
  if (!plan) return;
  describe(`${model.name} as a person sees it`, () => {
    beforeEach(() => {
      // jsdom has no CSS.escape; react-aria's Modal reads a meta tag with it.
      if (typeof globalThis.CSS?.escape !== 'function') {
        vi.stubGlobal('CSS', { escape: (value: string) => value.replace(/["\\\]]/g, '\\$&'), supports: () => false });
      }
    });
    afterEach(() => {
      cleanup();
      vi.unstubAllGlobals();
    });
    plan.statePaths.forEach((path, index) => {
      it(`${index + 1}. ${pathTitle(path)}`, () => replayOnScreen(model, path, mount));
    });
    it('says what the person sees in every state the paths reach', () => {
      const reached = new Set(plan.statePaths.flatMap((path) => path.steps.map((step) => JSON.stringify(step.value))));
      expect(reached.size).toBeGreaterThan(0);
      expect(Object.keys(model.view ?? {}).length).toBeGreaterThan(0);
    });
  });
}

function replayOnScreen(model: MachineModel, path: PlanPath, mount: Mount): void {
  // Testing Library's render flushes its own act.
  const actor = mount({ machine: model.machine, input: path.variant?.input ?? model.input, clock: stoppedClock });
  check(model, actor.getSnapshot(), 'at the start');
  path.steps.slice(1).forEach((step, index) => {
    act(() => actor.send(step.event));
    check(model, actor.getSnapshot(), `after step ${index + 2} (${step.event.type})`);
  });
}

function check(model: MachineModel, snapshot: AnyMachineSnapshot, where: string): void {
  for (const node of snapshot._nodes) {
    const expectation = model.view?.[stateKey(node)];
    if (!expectation) continue;
    try {
      expectation(screen, snapshot);
    } catch (error) {
      if (error instanceof Error) error.message = `${where}, in state ${stateKey(node)}: ${error.message}`;
      throw error;
    }
  }
}
