import type { MachinePlan, PlanPath } from './graph.ts';
import { pathTitle } from './graph.ts';

/**
 * The plan's paths as numbered test cases: the one list both the generated path tests
 * (`describePathTests` names its tests from it) and the QA exports (CSV, JSON, Markdown) are
 * written from, so a test case id in a test-management tool names exactly one CI test.
 */

export const stateGroup = 'paths to every state';
export const transitionGroup = 'paths through every transition';

export interface PlanCase {
  /** `session-S01` (a path to a state) or `session-T07` (a path through a transition), from the model's name. */
  id: string;
  group: typeof stateGroup | typeof transitionGroup;
  /** The vitest test's own name: `session-T007: checking.restoring + … → …`. */
  testName: string;
  /** The full name vitest reports: `<suite> > <group> > <testName>`. */
  fullName: string;
  path: PlanPath;
}

/** The vitest suite the machine's path tests are in. */
export function suiteName(modelName: string): string {
  return `${modelName} statechart`;
}

/** `modelName` is `MachineModel.name`, which names the test suite too. */
export function planCases(modelName: string, plan: MachinePlan): PlanCase[] {
  const number = (prefix: string, count: number) => {
    const width = Math.max(2, String(count).length);
    return (index: number) => `${modelName}-${prefix}${String(index + 1).padStart(width, '0')}`;
  };
  const stateId = number('S', plan.statePaths.length);
  const transitionId = number('T', plan.transitionPaths.length);
  const toCase = (group: PlanCase['group'], id: string, path: PlanPath): PlanCase => {
    const testName = `${id}: ${pathTitle(path)}`;
    return { id, group, testName, fullName: `${suiteName(modelName)} > ${group} > ${testName}`, path };
  };
  return [
    ...plan.statePaths.map((path, index) => toCase(stateGroup, stateId(index), path)),
    ...plan.transitionPaths.map((path, index) => toCase(transitionGroup, transitionId(index), path)),
  ];
}
