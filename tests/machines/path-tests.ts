import * as vitest from 'vitest';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, AnyStateNode, AnyTransitionDefinition } from 'xstate';
import { planCases, stateGroup, suiteName, transitionGroup } from '../../scripts/statecharts/cases.ts';
import {
  buildPlan,
  measureCoverage,
  runPath,
  type Coverage,
  type MachinePlan,
  type PlanPath,
} from '../../scripts/statecharts/graph.ts';
import { listStates, listTransitions, triggerName } from '../../scripts/statecharts/structure.ts';
import type { MachineModel, ModelExpectations } from './machine-model.ts';

/**
 * Registers the machine's whole QA path plan as vitest tests: the shortest path to every state and
 * through every transition (claim variants included), each replayed on a real actor with the
 * model's inert implementations, plus one test that every state node and one that every
 * transition is exercised. The plan comes from the same `buildPlan` that writes docs/statecharts,
 * so the document is what is tested.
 *
 * What each step must do comes from the model's `expectations` (written from the spec, not from the
 * machine): after every step, the expectation of every active state; for every transition taken,
 * its effects (context, emitted events, inputs of started actors).
 */
export function describePathTests(model: MachineModel, registrar: TestRegistrar = vitest): void {
  const { describe, it } = registrar;
  const plan = planOrFailingTest(model, it);
  if (!plan) return;
  // The test names carry the QA case ids (docs/statecharts/<name>.paths.csv) they run.
  const cases = planCases(model.name, plan);
  // Both coverage tests need every path run once; share the runs.
  let coverage: Coverage | undefined;
  const measured = () => (coverage ??= measureCoverage(model, plan));
  describe(suiteName(model.name), () => {
    for (const group of [stateGroup, transitionGroup]) {
      describe(group, () => {
        for (const planCase of cases.filter((candidate) => candidate.group === group)) {
          it(planCase.testName, () => replay(model, planCase.path));
        }
      });
    }
    it('reaches every state node', () => {
      const { states } = measured();
      expect(states.uncovered, `states no path reaches: ${states.uncovered.join(', ')}`).toEqual([]);
    });
    it('takes every transition', () => {
      const { transitions } = measured();
      expect(transitions.uncovered, `transitions no path takes: ${transitions.uncovered.join('; ')}`).toEqual(
        [],
      );
    });
    const { expectations } = model;
    if (expectations) {
      it('has an expectation for every state', () => {
        const missing = listStates(model.machine)
          .filter(({ node }) => node.type === 'atomic' || node.type === 'final')
          .map(({ node }) => stateKey(node))
          .filter((key) => !(key in expectations.states));
        expect(missing, 'states the model says nothing about').toEqual([]);
      });
      it('has an effect expectation for every transition', () => {
        const keys = new Set(
          listTransitions(model.machine).map(({ definition }) => transitionKey(definition)),
        );
        const missing = [...keys].filter((key) => !(key in expectations.transitions));
        expect(missing, 'transitions the model says nothing about').toEqual([]);
        const unknown = [
          ...Object.keys(expectations.transitions),
          ...Object.keys(expectations.states),
        ].filter(
          (key) => !keys.has(key) && !listStates(model.machine).some(({ node }) => stateKey(node) === key),
        );
        expect(unknown, 'expectations naming no state or transition of the machine').toEqual([]);
      });
    }
  });
}

/**
 * The two vitest functions the path tests are registered with; a test of the QA export passes
 * recording ones to read the names the path tests have without running them.
 */
/**
 * The model's path plan; when it cannot be built (a guard, action or params function of the machine
 * throws while the paths are walked), a test that fails with the reason instead, and undefined.
 * Thrown while the file is collected, the error would leave the file with no test at all, which
 * Stryker counts as nothing failing: a deleted params function "survived" the path tests it breaks.
 */
export function planOrFailingTest(model: MachineModel, it: TestRegistrar['it']): MachinePlan | undefined {
  try {
    return buildPlan(model);
  } catch (error) {
    it(`${model.name}: its paths can be planned`, () => {
      throw error;
    });
    return undefined;
  }
}

export interface TestRegistrar {
  describe: (name: string, body: () => void) => void;
  it: (name: string, body: () => void) => void;
}

/** `list.failed`: the node's id without the machine's; the root is `(machine)`. */
export function stateKey(node: AnyStateNode): string {
  const root = node.machine.id;
  return node.id === root ? '(machine)' : node.id.slice(root.length + 1);
}

/** `list.failed + list.retry`, `editing.debouncing + after validationDebounce`. */
export function transitionKey(transition: AnyTransitionDefinition): string {
  return `${stateKey(transition.source)} + ${triggerName(transition.eventType, transition.source.id)}`;
}

function replay(model: MachineModel, path: PlanPath): void {
  const run = runPath(model, path, (index, snapshot, effects, previous) => {
    const step = path.steps[index];
    const where = `after step ${index + 1} (${step?.event.type})`;
    expect(step, `step ${index + 1} is not in the path`).toBeDefined();
    expect(JSON.stringify(snapshot.value), where).toBe(JSON.stringify(step?.value));
    if (!model.expectations || !step) return;
    checkTransitions(model.expectations, effects.transitions, where, () => ({
      event: step.event,
      before: previous ?? snapshot,
      after: snapshot,
      emitted: effects.emitted,
      started: effects.started,
    }));
    checkStates(model.expectations, snapshot, where);
  });
  expect(run.errors).toEqual([]);
}

function checkTransitions(
  expectations: ModelExpectations,
  transitions: AnyTransitionDefinition[],
  where: string,
  effects: () => Parameters<ModelExpectations['transitions'][string]>[0],
): void {
  // One check per transition key: several branches of one trigger share their expectation.
  for (const key of new Set(transitions.map(transitionKey))) {
    const check = expectations.transitions[key];
    if (!check) throw new Error(`${where}: the model has no expectation for the transition ${key}`);
    try {
      check(effects());
    } catch (error) {
      throw annotate(error, `${where}, transition ${key}`);
    }
  }
}

function checkStates(expectations: ModelExpectations, snapshot: AnyMachineSnapshot, where: string): void {
  for (const node of snapshot._nodes) {
    const check = expectations.states[stateKey(node)];
    if (!check) continue;
    try {
      check(snapshot);
    } catch (error) {
      throw annotate(error, `${where}, in state ${stateKey(node)}`);
    }
  }
}

function annotate(error: unknown, context: string): unknown {
  if (error instanceof Error) error.message = `${context}: ${error.message}`;
  return error;
}
