import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import { planCases } from '../../scripts/statecharts/cases.ts';
import { toDot } from '../../scripts/statecharts/dot.ts';
import { MachineWording } from '../../scripts/statecharts/labels.ts';
import { buildPlan, measureCoverage, runPath } from '../../scripts/statecharts/graph.ts';
import {
  indexMarkdown,
  machineMarkdown,
  planMarkdown,
  stepMarkdown,
} from '../../scripts/statecharts/markdown.ts';
import { mermaidText, toMermaid } from '../../scripts/statecharts/mermaid.ts';
import {
  guardName,
  listStates,
  listTransitions,
  triggerName,
  valueLabel,
} from '../../scripts/statecharts/structure.ts';
import { renderDiagram } from '../../scripts/statecharts/svg.ts';
import trafficModel, { statechartLabels, trafficMachine } from './fixtures/traffic.fixture.ts';
import type { MachineModel, SampleEvent } from './machine-model.ts';
import { describePathTests, type TestRegistrar } from './path-tests.ts';

describePathTests(trafficModel);

const wording = new MachineWording('traffic', trafficMachine, statechartLabels, 'trafficMachine');

describe('xstate behaviour the path tests rely on', () => {
  // If an xstate upgrade stopped accepting these from outside, every invoke/after path would stall.
  it('takes xstate.done.actor, xstate.error.actor and xstate.after events sent from outside', () => {
    const actor = createActor(trafficModel.machine, { input: { faultLimit: 2 } }).start();
    actor.send({ type: 'xstate.done.actor.checkController', output: { healthy: true } });
    expect(actor.getSnapshot().value).toEqual({ running: 'green' });
    actor.send({ type: 'xstate.after.greenTime.traffic.running.green' });
    expect(actor.getSnapshot().value).toEqual({ running: 'yellow' });
    actor.stop();

    const failing = createActor(trafficModel.machine, { input: { faultLimit: 2 } }).start();
    failing.send({ type: 'xstate.error.actor.checkController', error: new Error('down') });
    expect(failing.getSnapshot().value).toBe('fault');
    failing.stop();
  });
});

describe('a machine whose paths cannot be planned', () => {
  // A mutant that deletes a params function makes the walk throw while the file is collected.
  const broken: MachineModel = {
    ...trafficModel,
    machine: trafficModel.machine.provide({
      guards: {
        isHealthy: () => {
          throw new Error('guard broken');
        },
      },
    }),
  };

  it('registers one test, which fails with the reason, instead of none', () => {
    const registered: { name: string; body: () => void }[] = [];
    const registrar: TestRegistrar = { describe: (_name, body) => body(), it: (name, body) => registered.push({ name, body }) };
    describePathTests(broken, registrar);
    expect(registered.map((test) => test.name)).toEqual(['traffic: its paths can be planned']);
    expect(registered[0]?.body).toThrow('guard broken');
  });
});

describe('path plan', () => {
  const plan = buildPlan(trafficModel);

  it('starts every path at the initial state', () => {
    for (const path of [...plan.statePaths, ...plan.transitionPaths]) {
      expect(path.steps[0]?.event.type).toBe('xstate.init');
      expect(path.steps[0]?.value).toBe('checking');
    }
  });

  it('has one shortest path per state value and context key, in breadth-first order', () => {
    const ends = plan.statePaths.map((path) => path.steps.at(-1));
    const keys = ends.map((step) => `${valueLabel(step?.value ?? '')} ${step?.contextKey}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys[0]).toBe('checking {"faults":0}');
    expect(keys).toContain('outOfService {"faults":2}');
    const lengths = plan.statePaths.map((path) => path.steps.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
  });

  it('reaches outOfService only through the canRetry=false branch', () => {
    const path = plan.statePaths.find((candidate) => candidate.steps.at(-1)?.value === 'outOfService');
    expect(path?.steps.map((step) => step.event.type)).toEqual([
      'xstate.init',
      'xstate.done.actor.checkController',
      'power.restore',
      'xstate.done.actor.checkController',
      'power.restore',
    ]);
  });

  it('gives every transition path a head that is a state path', () => {
    const heads = new Set(
      plan.statePaths.map((path) => JSON.stringify(path.steps.map((step) => step.event))),
    );
    for (const path of plan.transitionPaths) {
      expect(heads.has(JSON.stringify(path.steps.slice(0, -1).map((step) => step.event)))).toBe(true);
    }
  });

  it('is deterministic', () => {
    expect(JSON.stringify(buildPlan(trafficModel))).toBe(JSON.stringify(plan));
  });

  it('covers all 7 states and 10 transitions of the fixture', () => {
    const coverage = measureCoverage(trafficModel, plan);
    expect(coverage.states).toEqual({ total: 7, covered: 7, uncovered: [] });
    expect(coverage.transitions).toEqual({ total: 10, covered: 10, uncovered: [] });
  });

  it('reports what a model without the context key cannot reach', () => {
    const flat: MachineModel = { ...trafficModel, contextKey: undefined };
    const coverage = measureCoverage(flat, buildPlan(flat));
    expect(coverage.states.uncovered).toEqual(['traffic.outOfService']);
    expect(coverage.transitions.uncovered).toEqual(['traffic.fault: power.restore → traffic.outOfService']);
  });

  it('shows, step by step, where a machine leaves the plan', () => {
    const path = plan.statePaths.find(
      (candidate) => valueLabel(candidate.steps.at(-1)?.value ?? '') === 'running.green',
    );
    if (!path) throw new Error('no path to running.green');
    const broken: MachineModel = {
      ...trafficModel,
      machine: trafficModel.machine.provide({ guards: { isHealthy: () => false } }),
    };
    const values: string[] = [];
    runPath(broken, path, (_index, snapshot) => values.push(valueLabel(snapshot.value)));
    expect(path.steps.map((step) => valueLabel(step.value))).toEqual(['checking', 'running.green']);
    expect(values).toEqual(['checking', 'fault']);
  });
});

describe('structure', () => {
  it('lists states in document order with descriptions and tags, without the root', () => {
    const states = listStates(trafficMachine);
    expect(states.map((state) => state.path)).toEqual([
      'checking',
      'running',
      'running.green',
      'running.yellow',
      'running.red',
      'fault',
      'outOfService',
    ]);
    expect(states[0]).toMatchObject({
      description: 'Controller self-test before the lights start',
      tags: ['busy'],
    });
  });

  it('names transitions by trigger, guard and target', () => {
    expect(listTransitions(trafficMachine).map((transition) => transition.id)).toEqual([
      'traffic.checking: xstate.done.actor.checkController [isHealthy] → traffic.running',
      'traffic.checking: xstate.done.actor.checkController → traffic.fault',
      'traffic.checking: xstate.error.actor.checkController → traffic.fault',
      'traffic.running: power.fail → traffic.fault',
      'traffic.running.green: pedestrian.request → traffic.running.yellow',
      'traffic.running.green: after greenTime → traffic.running.yellow',
      'traffic.running.yellow: after yellowTime → traffic.running.red',
      'traffic.running.red: after 5000ms → traffic.running.green',
      'traffic.fault: power.restore [canRetry] → traffic.checking',
      'traffic.fault: power.restore → traffic.outOfService',
    ]);
  });

  it('names triggers and guards the way people read them', () => {
    expect(triggerName('', 'm.a')).toBe('always');
    expect(triggerName('xstate.after.redirectDelay.m.a', 'm.a')).toBe('after redirectDelay');
    expect(triggerName('row.select', 'm.a')).toBe('row.select');
    expect(guardName('hasSelection')).toBe('hasSelection');
    expect(guardName({ type: 'isHealthy', params: {} })).toBe('isHealthy');
    expect(guardName(() => true)).toBe('inline');
  });

  it('writes parallel state values as one dotted path per region', () => {
    expect(valueLabel({ signedIn: 'idle' })).toBe('signedIn.idle');
    expect(valueLabel({ editor: { form: 'dirty', upload: 'idle' } })).toBe(
      'editor.form.dirty, editor.upload.idle',
    );
  });
});

describe('markdown', () => {
  const plan = buildPlan(trafficModel);
  const cases = planCases(trafficModel.name, plan);

  it('writes steps as `words (event) → state`, with payloads', () => {
    expect(
      stepMarkdown(wording, { event: { type: 'xstate.init' }, value: 'checking', contextKey: undefined }),
    ).toBe('start → `checking`');
    const failure: SampleEvent = { type: 'xstate.error.actor.checkController', error: new Error('down') };
    expect(
      stepMarkdown(wording, { event: failure, value: { running: 'green' }, contextKey: undefined }),
    ).toBe(
      'controller unreachable (`xstate.error.actor.checkController` `{"error":{"name":"Error","message":"down"}}`) → `running.green`',
    );
  });

  it('lists state paths, then transition paths, each case with its id and numbered steps', () => {
    const text = planMarkdown(wording, cases);
    const statesAt = text.indexOf('### Paths to every state');
    const transitionsAt = text.indexOf('### Paths through every transition');
    expect(statesAt).toBeGreaterThanOrEqual(0);
    expect(transitionsAt).toBeGreaterThan(statesAt);
    expect(text).toContain(
      '- **traffic-S01** Reach `checking` with `{"faults":0}`\n   1. start → `checking`',
    );
    expect(text).toContain(
      '- **traffic-S02** Reach `running.green` with `{"faults":0}`\n   1. start → `checking`\n   2. self-test finished (`xstate.done.actor.checkController` `{"output":{"healthy":true}}`) → `running.green`',
    );
    expect(text).toContain(`**traffic-T${String(plan.transitionPaths.length).padStart(2, '0')}**`);
  });

  it('builds a page with purpose, mermaid, image, states, transitions in words and code, names and plan', () => {
    const coverage = measureCoverage(trafficModel, plan);
    const page = machineMarkdown({
      name: 'traffic',
      title: 'traffic',
      wording,
      mermaid: toMermaid(trafficMachine, wording, 'LR'),
      states: listStates(trafficMachine),
      transitions: listTransitions(trafficMachine),
      cases,
      coverage,
      layout: { rankdir: 'LR', width: 900 },
    });
    expect(page.startsWith('# traffic\n')).toBe(true);
    expect(page).toContain('Runs a traffic light: self-test');
    expect(page).toContain('Spec: TL §1.');
    expect(page).toContain('```mermaid\nstateDiagram-v2\n');
    expect(page).toContain('![traffic statechart](traffic.svg)');
    expect(page).toContain('| `traffic.checking` | Controller self-test before the lights start | `busy` |');
    expect(page).toContain(
      '| `traffic.checking` | self-test finished, if the controller is healthy | `traffic.running` | `xstate.done.actor.checkController [isHealthy]` |',
    );
    expect(page).toContain(
      '| `traffic.running.red` | after 5 s | `traffic.running.green` | `after 5000ms` |',
    );
    expect(page).toContain('| `greenTime` | 30000 ms | the green phase | after 30 s |');
    expect(page).toContain('Coverage: states covered 7/7, transitions covered 10/10.');
    expect(page).toContain('[CSV](traffic.paths.csv)');
  });

  it('indexes machines with purpose, spec, counts, coverage and links', () => {
    const coverage = measureCoverage(trafficModel, plan);
    const index = indexMarkdown([
      {
        name: 'traffic',
        title: 'traffic',
        purpose: 'Runs a traffic light.',
        spec: ['TL §1'],
        states: 7,
        transitions: 10,
        cases: cases.length,
        coverage,
      },
    ]);
    expect(index).toContain(
      `| [traffic](traffic.md) | Runs a traffic light. | TL §1 | 7 | 10 | 7/7 states, 10/10 transitions | [SVG](traffic.svg) | ${cases.length} cases: [Markdown](traffic.md#qa-path-plan), [CSV](traffic.paths.csv), [JSON](traffic.paths.json) |`,
    );
  });
});

describe('diagrams', () => {
  it('writes a mermaid state diagram with nesting, initial and final markers, and words', () => {
    const mermaid = toMermaid(trafficMachine, wording, 'LR');
    expect(mermaid).toContain('  direction LR');
    expect(mermaid).toContain('[*] --> checking');
    expect(mermaid).toContain('state running {');
    expect(mermaid).toContain('  [*] --> green');
    expect(mermaid).toContain('green : Cars may go');
    expect(mermaid).toContain('red : Cars must stop#59; pedestrians cross');
    expect(mermaid).toContain('fault --> checking : the power came back, if fewer faults than the limit');
    expect(mermaid).toContain('fault --> outOfService : the power came back, otherwise');
    expect(mermaid).toContain('outOfService --> [*]');
    expect(mermaid).toContain('checking : ▸ Tests the controller');
    expect(mermaid).not.toContain('xstate.');
  });

  it('escapes what mermaid would parse', () => {
    expect(mermaidText('a: b; c # "d" {e} <f>')).toBe(
      'a#58; b#59; c #35; #quot;d#quot; #123;e#125; #lt;f#gt;',
    );
  });

  it('writes DOT with clusters, initial points, words, guarded colour, delays and technical tooltips', () => {
    const { dot, titles } = toDot(trafficMachine, wording, { rankdir: 'LR', density: 'normal' });
    expect(dot).toContain('rankdir=LR');
    expect(dot).toContain('subgraph "cluster_traffic.running" {');
    expect(dot).toMatch(/"traffic:initial" -> "traffic.checking" \[id="i\d+"\];/);
    expect(dot).toMatch(
      /"traffic.running.green" -> "traffic.running.yellow" \[id="(t\d+)", label="after 30 s", style=dashed\];/,
    );
    expect(dot).toMatch(
      /label="self-test finished\\nif the controller is healthy", lhead="cluster_traffic.running", color="#1f5fa8"/,
    );
    expect(dot).toContain('label="the power came back\\notherwise"');
    expect(dot).toContain('▸ Tests the controller');
    expect(dot).toContain('peripheries=2');
    expect(dot).not.toContain('xstate.');
    expect([...titles.values()]).toContain('xstate.done.actor.checkController [isHealthy] → traffic.running');
    expect([...titles.values()].some((title) => title.includes('entry / countFault'))).toBe(true);
  });

  it('renders to SVG with technical tooltips, a legend and a size that shrinks to the window, deterministically', async () => {
    const diagram = toDot(trafficMachine, wording, { rankdir: 'LR', density: 'normal' });
    const { svg, width } = await renderDiagram(diagram);
    expect(svg).toContain('<svg');
    expect(svg).toContain('Cars may go');
    expect(svg).toContain('<title>xstate.done.actor.checkController [isHealthy] → traffic.running</title>');
    expect(svg).toContain('How to read this diagram');
    expect(svg).toContain(`width="${width}px"`);
    expect(svg).toContain('style="max-width: 100%; height: auto"');
    expect((await renderDiagram(diagram)).svg).toBe(svg);
  });

  it('keeps a never-settling actor where the path left it', async () => {
    // What a model's inert actor guarantees: nothing moves after the last step of a path.
    const actor = createActor(
      trafficMachine.provide({
        actors: { checkController: fromPromise(() => new Promise<{ healthy: boolean }>(() => {})) },
      }),
      { input: { faultLimit: 1 } },
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(actor.getSnapshot().value).toBe('checking');
    actor.stop();
  });
});
