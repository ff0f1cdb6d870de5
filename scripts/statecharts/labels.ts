import type { AnyStateMachine, AnyStateNode, EventObject } from 'xstate';
import type { ActorLabel } from '../../src/machines/machine-labels.ts';
import { START_EVENT } from './graph.ts';
import { descendants, transitionLabel, type TransitionInfo } from './structure.ts';

/**
 * The words analysts and QA read, taken from the `labels` each machine file exports next to its
 * machine (`src/machines/machine-labels.ts`), and the check that every name the machine uses has
 * them. Technical names stay available (`technical`) for tooltips and the engineers' tables.
 */

/** The run-time shape of `MachineLabels<M>`: what the type guarantees, checked again at run time. */
export interface LabelsData {
  purpose: string;
  spec: readonly string[];
  actors?: Record<string, ActorLabel>;
  children?: Record<string, ActorLabel>;
  guards?: Record<string, string>;
  delays?: Record<string, string>;
  events?: Record<string, string>;
}

const doneActor = 'xstate.done.actor.';
const errorActor = 'xstate.error.actor.';
const doneState = 'xstate.done.state.';
const afterPrefix = 'xstate.after.';

export function isLabelsData(value: unknown): value is LabelsData {
  if (typeof value !== 'object' || value === null) return false;
  const record: Record<string, unknown> = { ...value };
  const isRecord = (item: unknown) => item === undefined || (typeof item === 'object' && item !== null);
  return (
    typeof record.purpose === 'string' &&
    Array.isArray(record.spec) &&
    ['actors', 'children', 'guards', 'delays', 'events'].every((key) => isRecord(record[key]))
  );
}

/** `5000` → `5 s`, `120000` → `2 min`, `300` → `300 ms`. */
export function formatDuration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000 && ms % 100 === 0) return `${ms / 1000} s`;
  return `${ms} ms`;
}

/** What one event or transition is called, for people and for engineers. */
export interface Words {
  /** 'account loaded', 'after 5 s', 'immediately'. */
  text: string;
  /** 'xstate.done.actor.loadAccount', 'after reloginDelay'. */
  technical: string;
}

export class MachineWording {
  private readonly invokeSources = new Map<string, string>();

  constructor(
    readonly name: string,
    readonly machine: AnyStateMachine,
    readonly labels: LabelsData | undefined,
    /** The exported name of the machine, for the messages: `sessionMachine`. */
    readonly exportName: string,
  ) {
    for (const node of [machine.root, ...descendants(machine.root)]) {
      for (const invoke of node.invoke) {
        if (typeof invoke.src === 'string') this.invokeSources.set(invoke.id, invoke.src);
      }
    }
  }

  get purpose(): string {
    return this.labels?.purpose ?? '';
  }

  get spec(): readonly string[] {
    return this.labels?.spec ?? [];
  }

  /** The actor a child id runs: the invoke's `src`, else the id itself (spawned under its own name). */
  sourceOf(id: string): string {
    return this.invokeSources.get(id) ?? id;
  }

  /** The actor's words for a child id: the invoke's source, an actor of that name, or `children`. */
  actor(id: string): ActorLabel | undefined {
    return this.labels?.actors?.[this.sourceOf(id)] ?? this.labels?.children?.[id];
  }

  guard(name: string): string | undefined {
    return this.labels?.guards?.[name];
  }

  /** The words of an event sent to or raised in the machine, or of a transition's event type. */
  event(event: EventObject | string): Words {
    const type = typeof event === 'string' ? event : event.type;
    if (type === START_EVENT) return { text: 'start', technical: type };
    if (type === '') return { text: 'immediately', technical: 'always' };
    if (type === '*') return { text: 'any other event', technical: type };
    if (type.startsWith(doneActor)) {
      const id = type.slice(doneActor.length);
      const label = this.actor(id);
      return { text: label ? (label.done ?? `${label.does} — done`) : `${id} done`, technical: type };
    }
    if (type.startsWith(errorActor)) {
      const id = type.slice(errorActor.length);
      const label = this.actor(id);
      return { text: label ? (label.failed ?? `${label.does} — failed`) : `${id} failed`, technical: type };
    }
    if (type.startsWith(doneState)) {
      const node = this.stateById(type.slice(doneState.length));
      return { text: `${node?.description ?? node?.key ?? 'state'} finished`, technical: type };
    }
    if (type.startsWith(afterPrefix)) {
      const rest = type.slice(afterPrefix.length);
      const delay = rest.slice(0, rest.indexOf('.') === -1 ? undefined : rest.indexOf('.'));
      return { text: this.after(delay), technical: type };
    }
    return { text: this.labels?.events?.[type] ?? type, technical: type };
  }

  /** `after 5 s` for a delay of 5000 ms, `after the token lifetime + 2 s` for a computed one. */
  after(delay: string): string {
    const value = /^\d+$/.test(delay) ? Number(delay) : this.machine.implementations.delays[delay];
    if (typeof value === 'number') return `after ${formatDuration(value)}`;
    return `after ${this.labels?.delays?.[delay] ?? delay}`;
  }

  /** The delay's own description with its value, for the engineers' glossary. */
  delayValue(delay: string): string {
    const value = this.machine.implementations.delays[delay];
    return typeof value === 'number' ? `${value} ms` : 'computed';
  }

  /** What triggers a transition, in words. */
  trigger(transition: TransitionInfo): Words {
    const eventType = transition.definition.eventType;
    return { ...this.event(eventType), technical: transition.trigger };
  }

  /**
   * 'if a session exists' for a guarded transition; 'otherwise' for an unguarded one that comes
   * after guarded ones for the same trigger on the same state; undefined for a plain one.
   */
  condition(transition: TransitionInfo): string | undefined {
    const definition = transition.definition;
    if (definition.guard !== undefined) return `if ${this.guardWords(definition.guard)}`;
    const siblings =
      definition.eventType === ''
        ? (transition.source.always ?? [])
        : (transition.source.transitions.get(definition.eventType) ?? []);
    const index = siblings.indexOf(definition);
    return siblings.slice(0, Math.max(0, index)).some((sibling) => sibling.guard !== undefined)
      ? 'otherwise'
      : undefined;
  }

  guardWords(guard: unknown): string {
    if (typeof guard === 'string') return this.guard(guard) ?? guard;
    if (typeof guard === 'object' && guard !== null && 'type' in guard) {
      const type = String(guard.type);
      return this.guard(type) ?? type;
    }
    if (typeof guard === 'function' && 'guards' in guard && Array.isArray(guard.guards)) {
      const parts: string[] = guard.guards.map((inner: unknown) => this.guardWords(inner));
      if (guard.name === 'not') return `not (${parts.join(', ')})`;
      return parts.join(guard.name === 'or' ? ' or ' : ' and ');
    }
    return 'a condition written in place';
  }

  /** The lines of a transition's label: what happens, then its condition. */
  transitionLines(transition: TransitionInfo): string[] {
    const condition = this.condition(transition);
    return [this.trigger(transition).text, ...(condition ? [condition] : [])];
  }

  /** `xstate.done.actor.loadAccount [hasToken] / assignToken`, for tooltips and engineers. */
  technical(transition: TransitionInfo): string {
    return transitionLabel(transition);
  }

  /** The title of a region of a parallel state (its description) or of any other state (its key). */
  title(node: AnyStateNode): string {
    return node.description ?? node.key;
  }

  stateById(id: string): AnyStateNode | undefined {
    return [this.machine.root, ...descendants(this.machine.root)].find((node) => node.id === id);
  }
}

/**
 * Every name the machine uses that its labels do not describe, as messages naming the machine and
 * each item, followed by the entries to add to the machine file (grouped as `labels` has them).
 */
export function checkLabels(wording: MachineWording, transitions: TransitionInfo[]): string[] {
  const { machine, labels, name } = wording;
  const file = `src/machines/${name}.machine.ts`;
  const missing: Array<{ item: string; section: string; entry: string }> = [];
  const add = (item: string, section: string, entry: string) => {
    if (!missing.some((known) => known.section === section && known.entry === entry))
      missing.push({ item, section, entry });
  };
  const implementations = machine.implementations;
  const actorEntry = (key: string) => `${quoteKey(key)}: { does: '…', done: '…', failed: '…' },`;

  if (!labels?.purpose.trim()) add('purpose', 'purpose', `'<what the workflow is for, one sentence>'`);
  if (!labels?.spec.length) add('spec sections', 'spec', `['<spec sections, e.g. AM §4>']`);
  for (const actor of Object.keys(implementations.actors)) {
    if (!labels?.actors?.[actor]?.does.trim()) add(`actor '${actor}'`, 'actors', actorEntry(actor));
  }
  for (const guard of Object.keys(implementations.guards)) {
    if (!labels?.guards?.[guard]?.trim())
      add(`guard '${guard}'`, 'guards', `${quoteKey(guard)}: '<the condition, read after "if">',`);
  }
  for (const delay of Object.keys(implementations.delays)) {
    if (!labels?.delays?.[delay]?.trim())
      add(`delay '${delay}'`, 'delays', `${quoteKey(delay)}: '<what the wait is>',`);
  }
  const eventTypes = [...new Set(transitions.map((transition) => transition.definition.eventType))].sort();
  for (const type of eventTypes) {
    for (const prefix of [doneActor, errorActor]) {
      if (!type.startsWith(prefix)) continue;
      const id = type.slice(prefix.length);
      const src = wording.sourceOf(id);
      // A child of a described (or reported) actor needs nothing more.
      if (src in implementations.actors || wording.actor(id)) continue;
      add(`child actor '${id}'`, 'children', actorEntry(id));
    }
    if (type === '' || type === '*' || type.startsWith('xstate.')) continue;
    if (!labels?.events?.[type]?.trim())
      add(`event '${type}'`, 'events', `${quoteKey(type)}: '<what happened, in words>',`);
  }
  for (const transition of transitions) {
    if (transition.guard?.includes('inline')) {
      add(
        `the guard written in place on ${transition.id}`,
        'guards',
        `<name the guard in setup, then describe it here>`,
      );
    }
  }
  for (const node of descendants(machine.root)) {
    if (node.parent?.type === 'parallel' && !node.description?.trim()) {
      add(
        `parallel region '${node.path.join('.')}'`,
        'states (in the machine itself)',
        `${node.key}: { description: '<what this region is about: its title on the diagram>', … }`,
      );
    }
  }
  if (!missing.length) return [];
  const header = labels
    ? `${name}: ${file} does not describe ${missing.map((entry) => entry.item).join(', ')}. Add to its \`export const statechartLabels\`:`
    : `${name}: ${file} has no \`export const statechartLabels\` (so nothing it names is described). Add next to the machine:\n` +
      `    import type { MachineLabels } from './machine-labels.ts';\n` +
      `    export const statechartLabels = { … } satisfies MachineLabels<typeof ${wording.exportName}>;\n  with:`;
  const sections = [...new Set(missing.map((entry) => entry.section))];
  const lines = sections.flatMap((section) => {
    const entries = missing.filter((entry) => entry.section === section).map((entry) => entry.entry);
    if (section === 'purpose' || section === 'spec') return [`    ${section}: ${entries.join(' ')},`];
    return [`    ${section}: {`, ...entries.map((entry) => `      ${entry}`), '    },'];
  });
  return [header, ...lines];
}

function quoteKey(key: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : `'${key}'`;
}
