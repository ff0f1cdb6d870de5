import {
  createActor,
  isMachineSnapshot,
  type AnyActorRef,
  type AnyMachineSnapshot,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type StateValue,
} from 'xstate';
import { adjacencyMapToArray, getAdjacencyMap, getShortestPaths } from '@xstate/graph';
import type { MachineModel } from '../../tests/machines/machine-model.ts';
import { listStates, listTransitions, valueLabel } from './structure.ts';

/**
 * The QA path plan and its coverage, computed once here for both `npm run statecharts` (which
 * writes it down) and `describePathTests` (which runs it), so the document and the tests never
 * disagree about which paths exist.
 */

export interface PlanStep {
  event: EventObject;
  /** The state value the machine is in after `event`. */
  value: StateValue;
  /** JSON of the model's `contextKey` for that snapshot, when the model has one. */
  contextKey: string | undefined;
}

/** `steps[0]` is the start (`xstate.init` → initial state); each later step is one event sent. */
export interface PlanPath {
  steps: PlanStep[];
  /**
   * The model's claim variant the path is walked with (`MachineModel.variants`), when not the
   * model's own input: its name for the plan, its input for the actor.
   */
  variant?: { name: string; input: unknown };
}

export interface MachinePlan {
  statePaths: PlanPath[];
  transitionPaths: PlanPath[];
}

export const START_EVENT = 'xstate.init';

/**
 * Error payloads are the usual thing in `xstate.error.actor.*` samples and `JSON.stringify` turns
 * every Error into `{}`; keep name, message and own fields (e.g. `status`) so two different
 * failures stay two edges and read differently in the plan.
 */
export function serializeEvent(event: EventObject): string {
  return JSON.stringify(event, keepErrors);
}

function keepErrors(_key: string, value: unknown): unknown {
  return value instanceof Error ? Object.assign({ name: value.name, message: value.message }, value) : value;
}

function vertexKey(model: MachineModel, snapshot: AnyMachineSnapshot): string {
  return JSON.stringify([snapshot.value, model.contextKey?.(snapshot) ?? null]);
}

/** `filters.*` or `*` in `on` accept many types; only samples tell which ones to try. */
function matchesDescriptor(descriptor: string, type: string): boolean {
  if (descriptor === type || descriptor === '*') return true;
  return (
    descriptor.endsWith('.*') &&
    (type === descriptor.slice(0, -2) || type.startsWith(descriptor.slice(0, -1)))
  );
}

/**
 * Events to try from `snapshot`: for each event type its active states accept, the model's samples
 * of it, or a bare `{ type }` when there is none. `xstate.done.state.*` is left out: xstate raises it
 * itself when a final child is reached, which the walk reaches honestly.
 */
function eventsFor(model: MachineModel, snapshot: AnyMachineSnapshot): EventObject[] {
  // A machine in a top-level final state ignores everything, though its root still lists events.
  if (snapshot.status !== 'active') return [];
  const samples = typeof model.events === 'function' ? model.events(snapshot) : model.events;
  const descriptors = [...new Set(snapshot._nodes.flatMap((node) => node.ownEvents))].filter(
    (descriptor) => !descriptor.startsWith('xstate.done.state.'),
  );
  const events = descriptors.flatMap((descriptor) => {
    const matching = samples.filter((sample) => matchesDescriptor(descriptor, sample.type));
    if (matching.length) return matching;
    return descriptor.includes('*') ? [] : [{ type: descriptor }];
  });
  const unique = new Map(events.map((event) => [serializeEvent(event), event]));
  return [...unique.values()];
}

/**
 * Shortest path to every vertex (`getShortestPaths`), then every edge of the adjacency map
 * (`getAdjacencyMap`) as the shortest path to its source plus that edge's event. Both traversals
 * are breadth-first over the same options, so they visit the same snapshots in the same order.
 */
export function buildPlan(model: MachineModel): MachinePlan {
  try {
    const plan = walk(model);
    // Each claim variant adds the transitions its claims change, walked with its own input.
    for (const variant of model.variants ?? []) {
      const walked = walk({ ...model, input: variant.input });
      const extra = walked.transitionPaths.filter((path) =>
        variant.events.includes(path.steps[path.steps.length - 1]?.event.type ?? ''),
      );
      plan.transitionPaths.push(
        ...extra.map((path) => ({ ...path, variant: { name: variant.name, input: variant.input } })),
      );
    }
    return plan;
  } catch (error) {
    // Typically a guard reading the payload of an event sent bare because the model has no sample of it.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${model.name}: walking the machine failed; does every guarded event have a sample in the model? ${reason}`,
      { cause: error },
    );
  }
}

function walk(model: MachineModel): MachinePlan {
  const options = {
    input: model.input,
    serializeState: (snapshot: AnyMachineSnapshot) => vertexKey(model, snapshot),
    serializeEvent,
    events: (snapshot: AnyMachineSnapshot) => eventsFor(model, snapshot),
  };
  const shortest = getShortestPaths(model.machine, options);
  const toStep = (event: EventObject, snapshot: AnyMachineSnapshot): PlanStep => ({
    event,
    value: snapshot.value,
    contextKey: model.contextKey ? JSON.stringify(model.contextKey(snapshot)) : undefined,
  });
  const statePaths = shortest.map((path) => ({
    steps: path.steps.map((step) => toStep(step.event, step.state)),
  }));
  const pathByVertex = new Map(
    shortest.map((path, index) => [vertexKey(model, path.state), statePaths[index]]),
  );

  const adjacency = getAdjacencyMap(model.machine, options);
  const transitionPaths = adjacencyMapToArray(adjacency).map((edge) => {
    const head = pathByVertex.get(vertexKey(model, edge.state));
    if (!head) throw new Error(`no path to ${valueLabel(edge.state.value)}`);
    return { steps: [...head.steps, toStep(edge.event, edge.nextState)] };
  });
  return { statePaths, transitionPaths };
}

/**
 * Timers never fire on this clock: a path delivers `xstate.after.*` itself, like any other event,
 * so the result never depends on how long a step took.
 */
const stoppedClock = {
  setTimeout: () => 0,
  clearTimeout: () => {},
};

/** What one step of a path did, beyond the state it reached. */
export interface StepEffects {
  /** Events the machine emitted (`emit(...)`) during the step, in order. */
  emitted: EventObject[];
  /** Input of each child actor started during the step, by its id (invoke id). */
  started: Record<string, unknown>;
  /** The machine's own transitions taken during the step (microsteps through `always` included). */
  transitions: AnyTransitionDefinition[];
}

/** The input an actor was created with: `createActor(logic, { input })` keeps it in its options. */
function inputOf(ref: AnyActorRef): unknown {
  if ('options' in ref && typeof ref.options === 'object' && ref.options !== null && 'input' in ref.options) {
    return ref.options.input;
  }
  return undefined;
}

function startedChildren(before: AnyMachineSnapshot | undefined, after: AnyMachineSnapshot): Record<string, unknown> {
  const started: Record<string, unknown> = {};
  const children: Record<string, AnyActorRef | undefined> = after.children;
  const earlier: Record<string, AnyActorRef | undefined> = before?.children ?? {};
  for (const [id, ref] of Object.entries(children)) {
    if (ref && earlier[id] !== ref) started[id] = inputOf(ref);
  }
  return started;
}

export interface PathRun {
  /** Every state node active at some point, microsteps through `always` included. */
  reachedStateIds: Set<string>;
  takenTransitions: Set<AnyTransitionDefinition>;
  /** Errors the actor reported (a throwing action, an unhandled `xstate.error.*`). */
  errors: unknown[];
}

/**
 * Runs `path` on a real actor. xstate 5.33 takes `xstate.done.actor.<id>`, `xstate.error.actor.<id>`
 * and `xstate.after.<delay>.<stateId>` sent from outside exactly as if the child or the timer had
 * sent them (checked by a test of the fixture), so the model's never-settling actors and the stopped
 * clock leave every one of those moments to the path. `onStep(index, snapshot)` is called after the
 * start (index 0) and after each event, for step-by-step assertions.
 */
export function runPath(
  model: MachineModel,
  path: PlanPath,
  onStep: (index: number, snapshot: AnyMachineSnapshot, effects: StepEffects, previous: AnyMachineSnapshot | undefined) => void = () => {},
): PathRun {
  const inspected: InspectionEvent[] = [];
  const errors: unknown[] = [];
  const actor = createActor(model.machine, {
    input: path.variant ? path.variant.input : model.input,
    clock: stoppedClock,
    inspect: (event) => inspected.push(event),
  });
  actor.subscribe({ error: (error) => errors.push(error) });
  let emitted: EventObject[] = [];
  actor.on('*', (event: EventObject) => emitted.push(event));
  const reachedStateIds = new Set<string>();
  let previous: AnyMachineSnapshot | undefined;
  let inspectedBefore = 0;
  const record = (index: number) => {
    const snapshot = actor.getSnapshot();
    snapshot._nodes.forEach((node) => reachedStateIds.add(node.id));
    const transitions = inspected
      .slice(inspectedBefore)
      .flatMap((event) => (event.type === '@xstate.microstep' && event.actorRef === actor ? event._transitions : []));
    const effects = { emitted, started: startedChildren(previous, snapshot), transitions };
    onStep(index, snapshot, effects, previous);
    previous = snapshot;
    emitted = [];
    inspectedBefore = inspected.length;
  };
  try {
    actor.start();
    record(0);
    path.steps.slice(1).forEach((step, index) => {
      actor.send(step.event);
      record(index + 1);
    });
  } finally {
    actor.stop();
  }
  const takenTransitions = new Set<AnyTransitionDefinition>();
  for (const event of inspected) {
    // Child actors report their own microsteps to the same inspector; only the machine's count.
    if (event.type !== '@xstate.microstep' || event.actorRef !== actor) continue;
    event._transitions.forEach((transition) => takenTransitions.add(transition));
    if (isMachineSnapshot(event.snapshot))
      event.snapshot._nodes.forEach((node) => reachedStateIds.add(node.id));
  }
  return { reachedStateIds, takenTransitions, errors };
}

export interface CoverageCount {
  total: number;
  covered: number;
  /** Ids of what no path reached, in document order. */
  uncovered: string[];
}

export interface Coverage {
  states: CoverageCount;
  transitions: CoverageCount;
}

/** Runs every planned path and counts which state nodes and transition definitions it exercised. */
export function measureCoverage(model: MachineModel, plan: MachinePlan): Coverage {
  const reached = new Set<string>();
  const taken = new Set<AnyTransitionDefinition>();
  for (const path of [...plan.statePaths, ...plan.transitionPaths]) {
    const run = runPath(model, path);
    run.reachedStateIds.forEach((id) => reached.add(id));
    run.takenTransitions.forEach((transition) => taken.add(transition));
  }
  const states = listStates(model.machine);
  const transitions = listTransitions(model.machine);
  return {
    states: count(states.map((state) => [state.id, reached.has(state.id)])),
    transitions: count(transitions.map((transition) => [transition.id, taken.has(transition.definition)])),
  };
}

function count(items: Array<[string, boolean]>): CoverageCount {
  const uncovered = items.filter(([, covered]) => !covered).map(([id]) => id);
  return { total: items.length, covered: items.length - uncovered.length, uncovered };
}

/** `xstate.done.actor.fetchUser {"output":{"name":"Ada"}}`: the type, then the payload if any. */
export function describeEvent(event: EventObject): { type: string; payload: string | undefined } {
  const { type, ...payload } = event;
  return { type, payload: Object.keys(payload).length ? JSON.stringify(payload, keepErrors) : undefined };
}

/** One line naming a path: where it ends and, for a transition path, which event it ends with. */
export function pathTitle(path: PlanPath): string {
  const last = path.steps[path.steps.length - 1];
  const previous = path.steps[path.steps.length - 2];
  const claims = path.variant ? ` (${path.variant.name})` : '';
  if (!last) return '(empty path)';
  if (!previous) return `start → ${valueLabel(last.value)}${claims}`;
  return `${valueLabel(previous.value)} + ${last.event.type} → ${valueLabel(last.value)}${claims}`;
}
