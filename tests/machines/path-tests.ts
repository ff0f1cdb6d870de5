import { describe, expect, it } from 'vitest';
import {
  buildPlan,
  measureCoverage,
  pathTitle,
  runPath,
  type Coverage,
  type PlanPath,
} from '../../scripts/statecharts/graph.ts';
import type { MachineModel } from './machine-model.ts';

/**
 * Registers the machine's whole QA path plan as vitest tests: the shortest path to every state and
 * through every transition, each replayed on a real actor with the model's inert implementations,
 * plus one test that every state node and one that every transition is exercised. The plan comes
 * from the same `buildPlan` that writes docs/statecharts, so the document is what is tested.
 */
export function describePathTests(model: MachineModel): void {
  const plan = buildPlan(model);
  // Both coverage tests need every path run once; share the runs.
  let coverage: Coverage | undefined;
  const measured = () => (coverage ??= measureCoverage(model, plan));
  describe(`${model.name} statechart`, () => {
    describe('paths to every state', () => {
      plan.statePaths.forEach((path, index) => {
        it(`${index + 1}. ${pathTitle(path)}`, () => replay(model, path));
      });
    });
    describe('paths through every transition', () => {
      plan.transitionPaths.forEach((path, index) => {
        it(`${index + 1}. ${pathTitle(path)}`, () => replay(model, path));
      });
    });
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
  });
}

function replay(model: MachineModel, path: PlanPath): void {
  const run = runPath(model, path, (index, snapshot) => {
    const step = path.steps[index];
    expect(step, `step ${index + 1} is not in the path`).toBeDefined();
    expect(JSON.stringify(snapshot.value), `after step ${index + 1} (${step?.event.type})`).toBe(
      JSON.stringify(step?.value),
    );
  });
  expect(run.errors).toEqual([]);
}
