import type { MachineModel } from '../../tests/machines/machine-model.ts';
import { transitionGroup, type PlanCase } from './cases.ts';
import { describeEvent, START_EVENT, type PlanStep } from './graph.ts';
import type { MachineWording } from './labels.ts';
import { valuePaths } from './structure.ts';

/**
 * The QA exports of a machine's path plan: CSV for test-management tools (one row per test case,
 * TestRail's "Test Case (Text)" template and Xray's CSV importer map these columns directly) and
 * JSON for tooling. Both list the same cases, in the same order, as the generated path tests.
 */

export const csvColumns = [
  'ID',
  'Title',
  'Section',
  'Preconditions',
  'Steps',
  'Expected Result',
  'Automated Test',
] as const;

/** One step as QA reads it: what to do (the event in words) and where the workflow must then be. */
export interface QaStep {
  number: number;
  /** 'account loaded', 'start'. */
  action: string;
  /** The technical event: `xstate.done.actor.loadAccount`. */
  event: string;
  /** The event's payload as JSON, if it has one (a sample the test sends). */
  payload: string | undefined;
  /** Active state paths after the step: `['signedIn.lifetime.counting', 'signedIn.passwordDialog.closed']`. */
  states: string[];
  /** Each state's description (or its nearest described ancestor's), in the order of `states`. */
  descriptions: string[];
  /** The model's `contextKey` after the step, when the model has one. */
  context: string | undefined;
}

export interface QaCase {
  id: string;
  title: string;
  section: string;
  preconditions: string;
  steps: QaStep[];
  automatedTest: string;
}

export function qaCases(model: MachineModel, wording: MachineWording, cases: PlanCase[]): QaCase[] {
  return cases.map((planCase) => {
    const { path } = planCase;
    const steps = path.steps.map((step, index) => qaStep(wording, step, index));
    const last = steps[steps.length - 1];
    const previous = steps[steps.length - 2];
    const variant = path.variant ? ` (variant: ${path.variant.name})` : '';
    const title =
      planCase.group === transitionGroup && previous && last
        ? `${previous.states.join(', ')}: ${last.action} → ${last.states.join(', ')}${variant}`
        : `Reach ${last?.states.join(', ') ?? 'the start'}${variant}`;
    return {
      id: planCase.id,
      title,
      section: `${model.name} / ${planCase.group}`,
      preconditions: preconditions(model, planCase),
      steps,
      automatedTest: planCase.fullName,
    };
  });
}

function preconditions(model: MachineModel, planCase: PlanCase): string {
  const base =
    model.preconditions ??
    (model.input === undefined
      ? 'None: the workflow starts in its initial state'
      : `Input: ${truncate(JSON.stringify(model.input), 200)}`);
  return planCase.path.variant ? `${base}. Variant: ${planCase.path.variant.name}` : base;
}

function qaStep(wording: MachineWording, step: PlanStep, index: number): QaStep {
  const { type, payload } = describeEvent(step.event);
  const states = valuePaths(step.value);
  return {
    number: index + 1,
    action: type === START_EVENT ? `Start the ${wording.name} workflow` : wording.event(step.event).text,
    event: type,
    payload,
    states,
    descriptions: states.map((state) => stateDescription(wording, state)),
    context: step.contextKey,
  };
}

/** The state's own description, else the nearest ancestor's; empty when none has one. */
function stateDescription(wording: MachineWording, statePath: string): string {
  const machineId = wording.machine.id;
  for (let node = wording.stateById(`${machineId}.${statePath}`); node && node.parent; node = node.parent) {
    if (node.description) return node.description;
  }
  return '';
}

function truncate(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** `1. account loaded (xstate.done.actor.loadAccount {"output":…})`, one line per step. */
function stepsCell(steps: QaStep[]): string {
  return steps
    .map((step) => {
      if (step.event === START_EVENT) return `${step.number}. ${step.action}`;
      const technical = step.payload ? `${step.event} ${truncate(step.payload, 120)}` : step.event;
      return `${step.number}. ${step.action} (${technical})`;
    })
    .join('\n');
}

/** `1. checking.readingEntry — Checking your session`, matching the steps' numbers. */
function expectedCell(steps: QaStep[]): string {
  return steps
    .map((step) => {
      const states = step.states.map((state, index) => {
        const description = step.descriptions[index];
        return description ? `${state} — ${description}` : state;
      });
      return `${step.number}. ${states.join('; ')}`;
    })
    .join('\n');
}

/**
 * RFC 4180 quoting (every field quoted, quotes doubled, line breaks kept inside cells); records end
 * in LF rather than CRLF so git and `--check` see the same bytes on every platform.
 */
export function toCsv(cases: QaCase[]): string {
  const field = (text: string) => `"${text.replace(/"/g, '""')}"`;
  const rows = cases.map((qaCase) => [
    qaCase.id,
    qaCase.title,
    qaCase.section,
    qaCase.preconditions,
    stepsCell(qaCase.steps),
    expectedCell(qaCase.steps),
    qaCase.automatedTest,
  ]);
  return [[...csvColumns], ...rows].map((row) => row.map(field).join(',')).join('\n') + '\n';
}

/**
 * The JSON form, for tooling. Events and state descriptions repeat across hundreds of paths (a
 * sample row is kilobytes), so they are listed once and steps refer to them: `steps[].event` is an
 * index into `events`, `steps[].states` are keys of `states`. One case per line keeps diffs readable.
 */
export interface QaPlanJson {
  machine: string;
  purpose: string;
  spec: readonly string[];
  /** Where the cases run: the vitest file. */
  testFile: string;
  /** State path → its description (or its nearest described ancestor's). */
  states: Record<string, string>;
  events: Array<{ type: string; words: string; payload?: unknown }>;
  cases: Array<{
    id: string;
    title: string;
    section: string;
    preconditions: string;
    automatedTest: string;
    steps: Array<{ number: number; event: number; states: string[]; context?: unknown }>;
  }>;
}

export function toJson(model: MachineModel, name: string, wording: MachineWording, cases: QaCase[]): string {
  const states: Record<string, string> = {};
  const events: QaPlanJson['events'] = [];
  const eventIndex = new Map<string, number>();
  const eventOf = (step: QaStep): number => {
    const key = `${step.event} ${step.payload ?? ''}`;
    const known = eventIndex.get(key);
    if (known !== undefined) return known;
    const payload: unknown = step.payload === undefined ? undefined : JSON.parse(step.payload);
    events.push({ type: step.event, words: step.action, ...(payload === undefined ? {} : { payload }) });
    eventIndex.set(key, events.length - 1);
    return events.length - 1;
  };
  const jsonCases = cases.map((qaCase) => ({
    id: qaCase.id,
    title: qaCase.title,
    section: qaCase.section,
    preconditions: qaCase.preconditions,
    automatedTest: qaCase.automatedTest,
    steps: qaCase.steps.map((step) => {
      step.states.forEach((state, index) => (states[state] = step.descriptions[index] ?? ''));
      const context: unknown = step.context === undefined ? undefined : JSON.parse(step.context);
      return {
        number: step.number,
        event: eventOf(step),
        states: step.states,
        ...(context === undefined ? {} : { context }),
      };
    }),
  }));
  const plan: QaPlanJson = {
    machine: model.name,
    purpose: wording.purpose,
    spec: wording.spec,
    testFile: `tests/machines/${name}.paths.test.ts`,
    states: Object.fromEntries(Object.entries(states).sort(([a], [b]) => a.localeCompare(b))),
    events,
    cases: jsonCases,
  };
  const { cases: _cases, events: _events, ...head } = plan;
  const headJson = JSON.stringify(head, null, 2).slice(0, -2);
  const list = (items: unknown[]) => items.map((item) => `    ${JSON.stringify(item)}`).join(',\n');
  return `${headJson},\n  "events": [\n${list(events)}\n  ],\n  "cases": [\n${list(jsonCases)}\n  ]\n}\n`;
}
