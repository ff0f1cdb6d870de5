import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { MachineWording } from './labels.ts';
import {
  childStates,
  entryActions,
  exitActions,
  invokedActors,
  listTransitions,
  type TransitionInfo,
} from './structure.ts';

/** Left to right (states in columns) or top to bottom (states in rows). */
export type RankDir = 'LR' | 'TB';

/** How a diagram is laid out: its direction and how tightly text wraps and boxes sit. */
export interface Layout {
  rankdir: RankDir;
  /** Narrower text and less space between boxes, for machines too wide otherwise. */
  density: keyof typeof densities;
}

/** Characters per line before wrapping, and the space between boxes (inches), per density. */
const densities = {
  normal: { edge: 30, description: 36, detail: 40, region: 44, nodesep: 0.35, ranksep: 0.45 },
  compact: { edge: 18, description: 24, detail: 28, region: 30, nodesep: 0.15, ranksep: 0.3 },
  tight: { edge: 14, description: 20, detail: 22, region: 26, nodesep: 0.12, ranksep: 0.3 },
};
type Density = (typeof densities)['normal'];

/** Graphviz source and the tooltips its SVG gets, by element id (see `renderDiagram`). */
export interface DotDiagram {
  dot: string;
  /** Element id (`s3`, `t12`) → the technical names behind what the element shows. */
  titles: Map<string, string>;
}

/** Colour of guarded transitions, shared with the legend. */
export const guardedColor = '#1f5fa8';
/** Fill of the regions of a parallel state. */
export const regionFill = '#f3f6fa';

/**
 * Graphviz source for one machine, for the SVG analysts read. Labels are words from the machine's
 * `labels` (`MachineWording`); technical names go to the tooltips.
 *
 * Compound and parallel states are clusters; an edge to or from one is drawn to its border
 * (`compound=true` with lhead/ltail) from a point inside it: the initial-state dot for a compound
 * state, an invisible point for a parallel one. A transition from a state to one of its own
 * descendants cannot leave the border, so it starts from a dashed "any state in …" box inside the
 * cluster. Transitions without a target change no state; they are listed in their state's box
 * (marked ↺) rather than drawn as loops.
 */
export function toDot(machine: AnyStateMachine, wording: MachineWording, layout: Layout): DotDiagram {
  const density = densities[layout.density];
  const context: DotContext = { wording, density, titles: new Map(), anyNodes: new Set(), counter: 0 };
  const transitions = listTransitions(machine);
  const edges = transitions.flatMap((transition) => edgeLines(machine, transition, context));
  const internal = new Map<string, TransitionInfo[]>();
  for (const transition of transitions) {
    if (transition.targets.length) continue;
    internal.set(transition.source.id, [...(internal.get(transition.source.id) ?? []), transition]);
  }
  context.internal = internal;
  const root = machine.root;
  const rootHasDetails = context.anyNodes.has(root.id) || detailLines(root, context).length > 0;
  const rootLines = rootHasDetails ? [anyNodeLine(root, context, true)] : [];
  const dot = [
    `digraph ${quote(machine.id)} {`,
    `  graph [compound=true, rankdir=${layout.rankdir}, fontname="Helvetica", fontsize=11, nodesep=${density.nodesep}, ranksep=${density.ranksep}];`,
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10, margin="0.12,0.06"];',
    '  edge [fontname="Helvetica", fontsize=9, color="#444444"];',
    ...rootLines.map((line) => `  ${line}`),
    ...initialLines(root, context).map((line) => `  ${line}`),
    ...childStates(root)
      .flatMap((child) => stateLines(child, context))
      .map((line) => `  ${line}`),
    ...edges.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
  return { dot, titles: context.titles };
}

interface DotContext {
  wording: MachineWording;
  density: Density;
  titles: Map<string, string>;
  anyNodes: Set<string>;
  internal?: Map<string, TransitionInfo[]>;
  counter: number;
}

/** A fresh element id with its tooltip. */
function elementId(context: DotContext, prefix: string, title: string): string {
  context.counter += 1;
  const id = `${prefix}${context.counter}`;
  context.titles.set(id, title);
  return id;
}

function isCluster(node: AnyStateNode): boolean {
  return node.type === 'compound' || node.type === 'parallel';
}

function isWithin(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

/** The node an edge attaches to for `node`: itself, or a point inside its cluster. */
function anchor(node: AnyStateNode): string {
  if (node.type === 'compound' || !node.parent) return `${node.id}:initial`;
  if (node.type === 'parallel') return `${node.id}:anchor`;
  return node.id;
}

function edgeLines(machine: AnyStateMachine, transition: TransitionInfo, context: DotContext): string[] {
  const source = transition.source;
  const { wording } = context;
  const lines = wording.transitionLines(transition).flatMap((line) => wrap(line, context.density.edge));
  const condition = wording.condition(transition);
  return transition.targets.map((target) => {
    const title = `${wording.technical(transition)} → ${target.id}`;
    const attributes = [`id=${quote(elementId(context, 't', title))}`, `label=${quoteLines(lines)}`];
    let tail = anchor(source);
    if (source === machine.root || (isCluster(source) && target !== source && isWithin(target, source))) {
      tail = `${source.id}:any`;
      context.anyNodes.add(source.id);
    } else if (isCluster(source) && target !== source) {
      attributes.push(`ltail=${quote(`cluster_${source.id}`)}`);
    }
    if (isCluster(target) && target !== source && !isWithin(source, target)) {
      attributes.push(`lhead=${quote(`cluster_${target.id}`)}`);
    }
    if (transition.trigger.startsWith('after ')) attributes.push('style=dashed');
    if (transition.trigger === 'always') attributes.push('style=dotted');
    if (condition) attributes.push(`color=${quote(guardedColor)}`, `fontcolor=${quote(guardedColor)}`);
    return `${quote(tail)} -> ${quote(anchor(target))} [${attributes.join(', ')}];`;
  });
}

function initialLines(node: AnyStateNode, context: DotContext): string[] {
  // A parallel state enters all its regions at once: there is no single initial state to mark.
  if (node.type !== 'compound' || !node.initial.target.length) return [];
  const point = anchor(node);
  const targets = node.initial.target.map((target) => {
    const attributes = [`id=${quote(elementId(context, 'i', `initial state of ${node.id}: ${target.id}`))}`];
    if (isCluster(target)) attributes.push(`lhead=${quote(`cluster_${target.id}`)}`);
    return `${quote(point)} -> ${quote(anchor(target))} [${attributes.join(', ')}];`;
  });
  const pointId = elementId(context, 'p', node.parent ? `${node.id}: starts here` : `${node.id} starts here`);
  return [`${quote(point)} [id=${quote(pointId)}, shape=point, width=0.12, label=""];`, ...targets];
}

function stateLines(node: AnyStateNode, context: DotContext): string[] {
  const title = stateTitle(node, context);
  if (node.type === 'history') {
    const label = node.history === 'deep' ? 'H*' : 'H';
    const id = elementId(context, 's', title);
    return [
      `${quote(node.id)} [id=${quote(id)}, shape=circle, width=0.3, fixedsize=true, label=${quote(label)}];`,
    ];
  }
  const label = htmlLabel(node, context);
  if (!isCluster(node)) {
    const final = node.type === 'final' ? ', peripheries=2' : '';
    return [`${quote(node.id)} [id=${quote(elementId(context, 's', title))}, label=<${label}>${final}];`];
  }
  const isRegion = node.parent?.type === 'parallel';
  const style = isRegion
    ? `style="rounded,filled"; fillcolor=${quote(regionFill)}; color="#9aa9bb";`
    : node.type === 'parallel'
      ? 'style="rounded,bold"; color="#7a8594";'
      : 'style=rounded; color="#888888";';
  const body = [
    `id=${quote(elementId(context, 'c', title))};`,
    `label=<${label}>;`,
    `${style} labeljust=l;`,
    ...(node.type === 'parallel'
      ? [`${quote(anchor(node))} [shape=point, style=invis, width=0, label=""];`]
      : []),
    ...initialLines(node, context),
    // What the state itself does is in its cluster's label; the box only marks where edges start.
    ...(context.anyNodes.has(node.id) ? [anyNodeLine(node, context, false)] : []),
    ...childStates(node).flatMap((child) => stateLines(child, context)),
  ];
  return [`subgraph ${quote(`cluster_${node.id}`)} {`, ...body.map((line) => `  ${line}`), '}'];
}

/** The tooltip of a state: its id, description and the technical names of what it runs. */
function stateTitle(node: AnyStateNode, context: DotContext): string {
  const entry = entryActions(node);
  const exit = exitActions(node);
  const internal = context.internal?.get(node.id) ?? [];
  return [
    `state ${node.id}${node.type === 'final' ? ' (final)' : node.type === 'parallel' ? ' (parallel: its regions run at the same time)' : ''}`,
    ...(node.description ? [node.description] : []),
    ...(node.tags.length ? [`tags: ${node.tags.join(', ')}`] : []),
    ...(entry.length ? [`entry / ${entry.join(', ')}`] : []),
    ...(exit.length ? [`exit / ${exit.join(', ')}`] : []),
    ...invokedActors(node).map((actor) => `invoke ${actor}`),
    ...internal.map((transition) => `internal: ${context.wording.technical(transition)}`),
  ].join('\n');
}

/** The dashed box edges leave from when they start "anywhere in" a state, the root included. */
function anyNodeLine(node: AnyStateNode, context: DotContext, withDetails: boolean): string {
  const text = node.parent ? `any state in ${node.key}` : 'any state';
  const lines = [`<I>${escapeHtml(text)}</I>`, ...(withDetails ? detailLines(node, context) : [])];
  const id = elementId(
    context,
    'a',
    `${node.parent ? `anywhere in ${node.id}` : `anywhere in the machine ${node.id}`}\n${stateTitle(node, context)}`,
  );
  return `${quote(`${node.id}:any`)} [id=${quote(id)}, style="dashed,rounded", label=<${lines.join('<BR ALIGN="LEFT"/>')}<BR ALIGN="LEFT"/>>];`;
}

function htmlLabel(node: AnyStateNode, context: DotContext): string {
  const isRegion = node.parent?.type === 'parallel' && isCluster(node);
  const lines: string[] = [];
  if (isRegion && node.description) {
    // A region is titled with what it means; its key is the technical name beside it.
    lines.push(
      ...wrap(node.description, context.density.region).map((line) => `<B>${escapeHtml(line)}</B>`),
      `<FONT POINT-SIZE="8" COLOR="#666666">region ${escapeHtml(node.key)}</FONT>`,
    );
  } else {
    const kind =
      node.type === 'parallel'
        ? ' <FONT POINT-SIZE="8" COLOR="#666666">(regions run side by side)</FONT>'
        : '';
    lines.push(`<B>${escapeHtml(node.key)}</B>${kind}`);
    if (node.description) {
      lines.push(
        ...wrap(node.description, context.density.description).map(
          (line) => `<FONT POINT-SIZE="9"><I>${escapeHtml(line)}</I></FONT>`,
        ),
      );
    }
  }
  if (node.tags.length)
    lines.push(`<FONT POINT-SIZE="8" COLOR="#666666">shows as: ${escapeHtml(node.tags.join(', '))}</FONT>`);
  lines.push(...detailLines(node, context));
  return lines.join('<BR/>');
}

/** What a state does while it is active (its actors) and the events it handles in place. */
function detailLines(node: AnyStateNode, context: DotContext): string[] {
  const small = (text: string) => `<FONT POINT-SIZE="8">${escapeHtml(text)}</FONT>`;
  const { wording } = context;
  const actors = node.invoke.map((invoke) => {
    const label = wording.actor(invoke.id);
    return label ? label.does : invoke.id;
  });
  const internal = (context.internal?.get(node.id) ?? []).map(
    (transition) => `↺ ${wording.transitionLines(transition).join(', ')}`,
  );
  return [...actors.map((text) => `▸ ${text}`), ...internal]
    .flatMap((text) => wrap(text, context.density.detail))
    .map(small);
}

/** Greedy word wrap so long descriptions do not make one box as wide as the page. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  return line ? [...lines, line] : lines;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** DOT quoted string: backslashes would start escapes such as `\n` and `\N`, so double them. */
function quote(text: string): string {
  return `"${escapeDot(text).replace(/\n/g, ' ')}"`;
}

/** Several lines in one DOT label, each centred. */
function quoteLines(lines: string[]): string {
  return `"${lines.map((line) => escapeDot(line).replace(/\n/g, ' ')).join('\\n')}"`;
}

function escapeDot(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}
