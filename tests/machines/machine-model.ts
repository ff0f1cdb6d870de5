import type { AnyMachineSnapshot, AnyStateMachine, EventObject } from 'xstate';

/**
 * What one step did, for a transition's expectation: the event sent, the snapshots either side,
 * the events the machine emitted and the input given to each actor it started.
 */
export interface TransitionEffects {
  event: SampleEvent;
  before: AnyMachineSnapshot;
  after: AnyMachineSnapshot;
  emitted: EventObject[];
  /** Input of each child started in the step, by invoke id (`{}` when none started). */
  started: Record<string, unknown>;
}

/**
 * What must hold, written in the model from the spec — never computed from the machine, so a
 * changed machine fails them. Keys name state nodes and transitions relative to the machine:
 * `'list.failed'`; `'list.failed + list.retry'`, `'(machine) + viewport.resized'`,
 * `'editing.debouncing + after validationDebounce'`, `'list.loading + xstate.done.actor.loadList'`.
 */
export interface ModelExpectations {
  /**
   * Per state node: checked after every step of every path in which the node is active. Every
   * atomic and final state must have one ('has an expectation for every state' test).
   */
  states: Record<string, (snapshot: AnyMachineSnapshot) => void>;
  /**
   * Per transition (source + trigger; one entry covers all guarded branches of that trigger):
   * checked on every step that takes it. Every transition must have one.
   */
  transitions: Record<string, (effects: TransitionEffects) => void>;
}

/** One claim set (or other input) that changes behaviour, and the events whose outcome it changes. */
export interface ModelVariant {
  /** Names the variant in the plan, e.g. `app.create only`. */
  name: string;
  input: unknown;
  /** Transition paths ending with one of these event types are added to the plan for this variant. */
  events: string[];
}

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
   * `input` in words, for QA's test cases (the Preconditions column of docs/statecharts/<name>.paths.csv):
   * 'Application 1042 open by a user holding every claim'. Variants add 'with the claims of <name>'.
   */
  preconditions?: string;
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
  /**
   * Other inputs (claim sets) that change what the machine does: the guards are walked with real
   * claims, one variant per behaviour, never replaced by invented event fields.
   */
  variants?: ModelVariant[];
  /** What must hold in each state and what each transition must do; see `ModelExpectations`. */
  expectations?: ModelExpectations;
  /**
   * What a person sees in each state, when the machine's view is rendered on the path's actor
   * (`describeViewPaths`): Testing Library's `screen`, and the snapshot for what varies with context.
   */
  view?: Record<string, (screen: ViewQueries, snapshot: AnyMachineSnapshot) => void>;
}

/** The queries of Testing Library's `screen` the view expectations use. */
export type ViewQueries = typeof import('@testing-library/react').screen;

/** Identity function that gives a model file its type checking and completion. */
export function defineMachineModel(model: MachineModel): MachineModel {
  return model;
}
