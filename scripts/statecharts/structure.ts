import type { AnyStateMachine, AnyStateNode, AnyTransitionDefinition, StateValue } from 'xstate';

/**
 * The static shape of a machine as the diagrams, the plan and the coverage count it: which state
 * nodes exist, which transitions are defined, and the names people read on them. Everything here
 * walks the machine definition in document order, so every output built on it is deterministic.
 */

export interface StateInfo {
  node: AnyStateNode;
  /** The xstate id, e.g. `auth.signedIn.idle`. */
  id: string;
  /** Path below the root, dotted, e.g. `signedIn.idle`. */
  path: string;
  description: string | undefined;
  tags: string[];
}

export interface TransitionInfo {
  definition: AnyTransitionDefinition;
  source: AnyStateNode;
  targets: AnyStateNode[];
  /** What triggers it, as people say it: `row.select`, `always`, `after redirectDelay`. */
  trigger: string;
  guard: string | undefined;
  actions: string[];
  /** Unique readable name, used in coverage reports: `auth.idle: login [hasUser] → auth.busy`. */
  id: string;
}

/** Every state node below the root except history nodes, which are never active themselves. */
export function listStates(machine: AnyStateMachine): StateInfo[] {
  return descendants(machine.root)
    .filter((node) => node.type !== 'history')
    .map((node) => ({
      node,
      id: node.id,
      path: node.path.join('.'),
      description: node.description,
      tags: [...node.tags],
    }));
}

export function descendants(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).flatMap((child) => [child, ...descendants(child)]);
}

export function childStates(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states).filter((child) => child.type !== 'history');
}

/**
 * Every transition defined on the machine, root included: `on`, `always`, `after`, `onDone` and
 * the invokes' `onDone`/`onError`. Forbidden transitions (`on: { x: undefined }`) do nothing and
 * are left out, as xstate leaves them out of a state's accepted events.
 */
export function listTransitions(machine: AnyStateMachine): TransitionInfo[] {
  const nodes = [machine.root, ...descendants(machine.root)].filter((node) => node.type !== 'history');
  const definitions = nodes.flatMap((node) => [
    ...[...node.transitions.values()].flat(),
    ...(node.always ?? []),
  ]);
  const infos = definitions.filter((definition) => !isInert(definition)).map(describeTransition);
  return disambiguate(infos);
}

function isInert(definition: AnyTransitionDefinition): boolean {
  return !definition.target && definition.actions.length === 0 && !definition.reenter;
}

function describeTransition(definition: AnyTransitionDefinition): TransitionInfo {
  const source = definition.source;
  const targets = [...(definition.target ?? [])];
  const trigger = triggerName(definition.eventType, source.id);
  const guard = definition.guard === undefined ? undefined : guardName(definition.guard);
  const actions = actionNames(definition.actions);
  const to = targets.length ? targets.map((target) => target.id).join(', ') : '(no state change)';
  const id = `${source.id}: ${trigger}${guard ? ` [${guard}]` : ''} → ${to}`;
  return { definition, source, targets, trigger, guard, actions, id };
}

/** `trigger [guard] / action, action`, the label both diagrams put on a transition. */
export function transitionLabel(transition: TransitionInfo): string {
  const guard = transition.guard ? ` [${transition.guard}]` : '';
  const actions = transition.actions.length ? ` / ${transition.actions.join(', ')}` : '';
  return `${transition.trigger}${guard}${actions}`;
}

/** Two definitions can read the same (same event, guard and target); number the repeats. */
function disambiguate(infos: TransitionInfo[]): TransitionInfo[] {
  const seen = new Map<string, number>();
  return infos.map((info) => {
    const count = (seen.get(info.id) ?? 0) + 1;
    seen.set(info.id, count);
    return count === 1 ? info : { ...info, id: `${info.id} (#${count})` };
  });
}

/** `xstate.after.<delay>.<stateId>` is how xstate names a timer; people know it by its delay. */
export function triggerName(eventType: string, sourceId: string): string {
  if (eventType === '') return 'always';
  const afterPrefix = 'xstate.after.';
  const afterSuffix = `.${sourceId}`;
  if (eventType.startsWith(afterPrefix) && eventType.endsWith(afterSuffix)) {
    const delay = eventType.slice(afterPrefix.length, -afterSuffix.length);
    return /^\d+$/.test(delay) ? `after ${delay}ms` : `after ${delay}`;
  }
  return eventType;
}

export function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    // and(), or(), not() are functions carrying the guards they combine.
    if ('guards' in guard && Array.isArray(guard.guards)) {
      return `${guard.name}(${guard.guards.map((inner: unknown) => guardName(inner)).join(', ')})`;
    }
    return inlineName(guard.name, 'guard');
  }
  if (typeof guard === 'object' && guard !== null && 'type' in guard) return String(guard.type);
  return 'guard';
}

export function actionNames(actions: readonly unknown[]): string[] {
  return actions.flatMap((action) => {
    const name = actionName(action);
    return name === undefined ? [] : [name];
  });
}

/** `undefined` for the raise/cancel pair xstate adds to entry/exit to run an `after` timer. */
function actionName(action: unknown): string | undefined {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    if ('type' in action && typeof action.type === 'string') {
      const timerId = 'id' in action ? action.id : 'sendId' in action ? action.sendId : undefined;
      if (typeof timerId === 'string' && timerId.startsWith('xstate.after.')) return undefined;
      return action.type.replace(/^xstate\./, '');
    }
    return inlineName(action.name, 'actions');
  }
  if (typeof action === 'object' && action !== null && 'type' in action) return String(action.type);
  return 'action';
}

/** An arrow function written in place takes the name of the property it was written under. */
function inlineName(name: string, property: string): string {
  return name === '' || name === property || name === 'entry' || name === 'exit' ? 'inline' : name;
}

/** Entry/exit actions as people wrote them, without xstate's timer bookkeeping. */
export function entryActions(node: AnyStateNode): string[] {
  return actionNames(node.entry);
}

export function exitActions(node: AnyStateNode): string[] {
  return actionNames(node.exit);
}

export function invokedActors(node: AnyStateNode): string[] {
  return node.invoke.map((invoke) =>
    typeof invoke.src === 'string' && invoke.src !== invoke.id
      ? `${invoke.src} (id ${invoke.id})`
      : invoke.id,
  );
}

/** `{ signedIn: 'idle' }` → `['signedIn.idle']`; a parallel state gives one path per region. */
export function valuePaths(value: StateValue): string[] {
  if (typeof value === 'string') return [value];
  return Object.entries(value).flatMap(([key, child]) =>
    child === undefined ? [key] : valuePaths(child).map((rest) => `${key}.${rest}`),
  );
}

export function valueLabel(value: StateValue): string {
  return valuePaths(value).join(', ');
}
