import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';

/**
 * An event with its payload. `EventObject` alone is `{ type }`, and TypeScript rejects the extra
 * `output`/`error` fields of a sample written in place.
 */
export type SampleEvent = EventObject & Record<string, unknown>;

/**
 * How the statechart tooling sees one machine. Every `src/machines/<name>.machine.ts` has a
 * `tests/machines/<name>.model.ts` whose default export is one of these: `npm run statecharts`
 * draws and plans from it, and `describePathTests` runs the same plan as vitest tests.
 */
export interface MachineModel {
  /** Title of the diagram and of the test suite, normally the file's `<name>`. */
  name: string;
  /**
   * The machine after `.provide()`: actors that never settle (`fromPromise(() => new Promise(() => {}))`),
   * inert actions, so walking the graph never touches the network, the DOM or Sentry. Delays need no
   * replacement: the tests run the actor on a clock that never fires and deliver `xstate.after.*` by hand.
   */
  machine: AnyStateMachine;
  /** Passed to `createActor(machine, { input })` and to the graph traversal. */
  input?: unknown;
  /**
   * Sample events with payloads that satisfy the guards, including the ones actors and timers
   * would send: `xstate.done.actor.<invokeId>` (with `output`), `xstate.error.actor.<invokeId>`
   * (with `error`), `xstate.after.<delay>.<stateId>`. Several samples of one type give several edges
   * (e.g. one error that passes `isUnauthorized` and one that does not). Event types a state accepts
   * without a sample are sent bare, `{ type }`. A function receives the snapshot being explored.
   */
  events: SampleEvent[] | ((state: AnyMachineSnapshot) => SampleEvent[]);
  /**
   * The part of `context` that changes behaviour (what guards read, e.g. a retry count). Snapshots
   * with the same state value and the same key are one vertex of the graph. Left out, vertices are
   * state values only: the graph stays finite and the plan deterministic whatever else context holds.
   */
  contextKey?: (state: AnyMachineSnapshot) => unknown;
}

/** Identity function that gives a model file its type checking and completion. */
export function defineMachineModel(model: MachineModel): MachineModel {
  return model;
}
