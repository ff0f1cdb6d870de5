import type { AnyStateMachine, AnyStateNode } from 'xstate';
import {
  childStates,
  entryActions,
  exitActions,
  invokedActors,
  listTransitions,
  transitionLabel,
  type TransitionInfo,
} from './structure.ts';

/**
 * Graphviz source for one machine, for the SVG analysts read. Compound and parallel states are
 * clusters; an edge to or from one is drawn to its border (`compound=true` with lhead/ltail)
 * from a point inside it: the initial-state dot for a compound state, an invisible point for a
 * parallel one. A transition from a state to one of its own descendants cannot leave the border,
 * so it starts from a dashed "any <state>" box inside the cluster. Transitions without a target
 * only run actions; they are listed in their state's box rather than drawn as loops.
 */
export function toDot(machine: AnyStateMachine): string {
  const transitions = listTransitions(machine);
  const anyNodes = new Set<string>();
  const edges = transitions.flatMap((transition) => edgeLines(machine, transition, anyNodes));
  const internal = new Map<string, TransitionInfo[]>();
  for (const transition of transitions) {
    if (transition.targets.length) continue;
    internal.set(transition.source.id, [...(internal.get(transition.source.id) ?? []), transition]);
  }
  const root = machine.root;
  const rootHasDetails = anyNodes.has(root.id) || detailLines(root, internal.get(root.id) ?? []).length > 0;
  const rootLines = rootHasDetails ? [anyNodeLine(root, internal)] : [];
  return [
    `digraph ${quote(machine.id)} {`,
    '  graph [compound=true, fontname="Helvetica", fontsize=11, nodesep=0.5, ranksep=0.5];',
    '  node [shape=box, style=rounded, fontname="Helvetica", fontsize=10, margin="0.15,0.08"];',
    '  edge [fontname="Helvetica", fontsize=9, color="#444444"];',
    ...rootLines.map((line) => `  ${line}`),
    ...initialLines(root).map((line) => `  ${line}`),
    ...childStates(root)
      .flatMap((child) => stateLines(child, internal, anyNodes))
      .map((line) => `  ${line}`),
    ...edges.map((line) => `  ${line}`),
    '}',
    '',
  ].join('\n');
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

function edgeLines(machine: AnyStateMachine, transition: TransitionInfo, anyNodes: Set<string>): string[] {
  const source = transition.source;
  return transition.targets.map((target) => {
    const attributes = [`label=${quote(transitionLabel(transition))}`];
    let tail = anchor(source);
    if (source === machine.root || (isCluster(source) && target !== source && isWithin(target, source))) {
      tail = `${source.id}:any`;
      anyNodes.add(source.id);
    } else if (isCluster(source) && target !== source) {
      attributes.push(`ltail=${quote(`cluster_${source.id}`)}`);
    }
    if (isCluster(target) && target !== source && !isWithin(source, target)) {
      attributes.push(`lhead=${quote(`cluster_${target.id}`)}`);
    }
    if (transition.trigger.startsWith('after ')) attributes.push('style=dashed');
    if (transition.trigger === 'always') attributes.push('style=dotted');
    return `${quote(tail)} -> ${quote(anchor(target))} [${attributes.join(', ')}];`;
  });
}

function initialLines(node: AnyStateNode): string[] {
  // A parallel state enters all its regions at once: there is no single initial state to mark.
  if (node.type !== 'compound' || !node.initial.target.length) return [];
  const point = anchor(node);
  const targets = node.initial.target.map((target) => {
    const lhead = isCluster(target) ? ` [lhead=${quote(`cluster_${target.id}`)}]` : '';
    return `${quote(point)} -> ${quote(anchor(target))}${lhead};`;
  });
  return [`${quote(point)} [shape=point, width=0.12, label=""];`, ...targets];
}

function stateLines(
  node: AnyStateNode,
  internal: Map<string, TransitionInfo[]>,
  anyNodes: Set<string>,
): string[] {
  if (node.type === 'history') {
    const label = node.history === 'deep' ? 'H*' : 'H';
    return [`${quote(node.id)} [shape=circle, width=0.3, fixedsize=true, label=${quote(label)}];`];
  }
  const label = htmlLabel(node, internal.get(node.id) ?? []);
  if (!isCluster(node)) {
    const final = node.type === 'final' ? ', peripheries=2' : '';
    return [`${quote(node.id)} [label=<${label}>${final}];`];
  }
  const body = [
    `label=<${label}>;`,
    'style=rounded; labeljust=l; color="#888888";',
    ...(node.type === 'parallel'
      ? [`${quote(anchor(node))} [shape=point, style=invis, width=0, label=""];`]
      : []),
    ...initialLines(node),
    ...(anyNodes.has(node.id) ? [anyNodeLine(node, new Map())] : []),
    ...childStates(node).flatMap((child) => stateLines(child, internal, anyNodes)),
  ];
  return [`subgraph ${quote(`cluster_${node.id}`)} {`, ...body.map((line) => `  ${line}`), '}'];
}

/** The dashed box edges leave from when they start "anywhere in" a state, the root included. */
function anyNodeLine(node: AnyStateNode, internal: Map<string, TransitionInfo[]>): string {
  const title = node.parent ? `any state in ${node.key}` : 'any state';
  const lines = [`<I>${escapeHtml(title)}</I>`, ...detailLines(node, internal.get(node.id) ?? [])];
  return `${quote(`${node.id}:any`)} [style="dashed,rounded", label=<${lines.join('<BR/>')}>];`;
}

function htmlLabel(node: AnyStateNode, internal: TransitionInfo[]): string {
  const lines = [`<B>${escapeHtml(node.key)}</B>`];
  if (node.description) {
    lines.push(
      ...wrap(node.description, 36).map((line) => `<FONT POINT-SIZE="9"><I>${escapeHtml(line)}</I></FONT>`),
    );
  }
  if (node.tags.length)
    lines.push(`<FONT POINT-SIZE="8" COLOR="#666666">tags: ${escapeHtml(node.tags.join(', '))}</FONT>`);
  lines.push(...detailLines(node, internal));
  return lines.join('<BR/>');
}

function detailLines(node: AnyStateNode, internal: TransitionInfo[]): string[] {
  const small = (text: string) => `<FONT POINT-SIZE="8">${escapeHtml(text)}</FONT>`;
  const entry = entryActions(node);
  const exit = exitActions(node);
  return [
    ...(entry.length ? [small(`entry / ${entry.join(', ')}`)] : []),
    ...(exit.length ? [small(`exit / ${exit.join(', ')}`)] : []),
    ...invokedActors(node).map((actor) => small(`invoke ${actor}`)),
    ...internal.map((transition) => small(transitionLabel(transition))),
  ];
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
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, ' ')}"`;
}
