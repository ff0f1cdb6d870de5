import type { AnyStateMachine, AnyStateNode } from 'xstate';
import type { RankDir } from './dot.ts';
import type { MachineWording } from './labels.ts';
import { descendants, listTransitions, type TransitionInfo } from './structure.ts';

/**
 * A Mermaid `stateDiagram-v2` of the machine, so the diagram renders in the code host's Markdown
 * view. Mermaid ids are global, so a state goes by its key when that key is unique in the machine
 * and by its underscored path otherwise. Composite states keep their id as their title: an alias on
 * a composite (`state "x" as y {`) does not parse in Mermaid (mermaid-js/mermaid#2026).
 */
export function toMermaid(machine: AnyStateMachine, wording: MachineWording, rankdir: RankDir): string {
  const ids = mermaidIds(machine);
  const id = (node: AnyStateNode) => ids.get(node) ?? node.id;
  const edges = new Map<AnyStateNode, string[]>();
  const anyNodes = new Set<AnyStateNode>();
  for (const transition of listTransitions(machine)) {
    for (const line of edgeLines(transition, wording, id, anyNodes)) {
      const block = line.block;
      edges.set(block, [...(edges.get(block) ?? []), line.text]);
    }
  }
  const lines = [
    'stateDiagram-v2',
    `  direction ${rankdir}`,
    ...blockLines(machine.root, wording, id, edges, anyNodes).map((line) => `  ${line}`),
  ];
  return `${lines.join('\n')}\n`;
}

const reserved = new Set([
  'state',
  'note',
  'end',
  'direction',
  'classDef',
  'class',
  'style',
  'as',
  'left',
  'right',
  'of',
  'click',
]);

function mermaidIds(machine: AnyStateMachine): Map<AnyStateNode, string> {
  const nodes = descendants(machine.root);
  const keyCount = new Map<string, number>();
  nodes.forEach((node) => keyCount.set(node.key, (keyCount.get(node.key) ?? 0) + 1));
  const used = new Set<string>();
  const ids = new Map<AnyStateNode, string>();
  for (const node of nodes) {
    const wanted = keyCount.get(node.key) === 1 ? node.key : node.path.join('_');
    let base = wanted.replace(/\W/g, '_');
    if (reserved.has(base) || /^\d/.test(base)) base = `s_${base}`;
    let candidate = base;
    for (let n = 2; used.has(candidate) || used.has(`${candidate}_any`); n++) candidate = `${base}_${n}`;
    used.add(candidate);
    ids.set(node, candidate);
  }
  return ids;
}

interface EdgeLine {
  /** The composite state whose `{ }` block the line is written in. */
  block: AnyStateNode;
  text: string;
}

function edgeLines(
  transition: TransitionInfo,
  wording: MachineWording,
  id: (node: AnyStateNode) => string,
  anyNodes: Set<AnyStateNode>,
): EdgeLine[] {
  const source = transition.source;
  const label = ` : ${mermaidText(wording.transitionLines(transition).join(', '))}`;
  if (!transition.targets.length) {
    // Actions without a change of state: a loop on the state (on "any state" for the root).
    if (!source.parent) anyNodes.add(source);
    const self = source.parent ? id(source) : anyId(source, id);
    return [{ block: source.parent ?? source, text: `${self} --> ${self}${label}` }];
  }
  return transition.targets.map((target) => {
    // Leaving a state for one of its own descendants (or anything, from the root) starts "anywhere in" it.
    const fromAny = !source.parent || (target !== source && isWithin(target, source));
    if (fromAny) anyNodes.add(source);
    const tail = fromAny ? `${anyId(source, id)}` : id(source);
    const tailContainer = fromAny ? source : (source.parent ?? source);
    const block = commonAncestor(tailContainer, target.parent ?? target);
    return { block, text: `${tail} --> ${id(target)}${label}` };
  });
}

function anyId(node: AnyStateNode, id: (node: AnyStateNode) => string): string {
  return node.parent ? `${id(node)}_any` : 'any_state';
}

function isWithin(node: AnyStateNode, ancestor: AnyStateNode): boolean {
  for (let current: AnyStateNode | undefined = node; current; current = current.parent) {
    if (current === ancestor) return true;
  }
  return false;
}

function commonAncestor(a: AnyStateNode, b: AnyStateNode): AnyStateNode {
  for (let current: AnyStateNode | undefined = a; current; current = current.parent) {
    if (isWithin(b, current)) return current;
  }
  return a.machine.root;
}

function blockLines(
  node: AnyStateNode,
  wording: MachineWording,
  id: (node: AnyStateNode) => string,
  edges: Map<AnyStateNode, string[]>,
  anyNodes: Set<AnyStateNode>,
): string[] {
  const children = Object.values(node.states);
  const initial =
    node.type === 'compound' ? node.initial.target.map((target) => `[*] --> ${id(target)}`) : [];
  const any = anyNodes.has(node)
    ? [`state "${mermaidText(node.parent ? `any state in ${node.key}` : 'any state')}" as ${anyId(node, id)}`]
    : [];
  // Regions of a parallel state are separated by `--` in Mermaid.
  const childBlocks = children.map((child) => childLines(child, wording, id, edges, anyNodes));
  const childLinesJoined =
    node.type === 'parallel' && node.parent
      ? childBlocks.flatMap((block, index) => (index ? ['--', ...block] : block))
      : childBlocks.flat();
  return [...initial, ...any, ...childLinesJoined, ...(edges.get(node) ?? [])];
}

function childLines(
  node: AnyStateNode,
  wording: MachineWording,
  id: (node: AnyStateNode) => string,
  edges: Map<AnyStateNode, string[]>,
  anyNodes: Set<AnyStateNode>,
): string[] {
  if (node.type === 'compound' || node.type === 'parallel') {
    return [
      `state ${id(node)} {`,
      ...blockLines(node, wording, id, edges, anyNodes).map((line) => `  ${line}`),
      '}',
    ];
  }
  const title = node.type === 'history' ? (node.history === 'deep' ? 'H*' : 'H') : node.key;
  const actors = node.invoke.map((invoke) => `▸ ${wording.actor(invoke.id)?.does ?? invoke.id}`);
  const details = [node.description, ...actors].filter((text): text is string => Boolean(text));
  return [
    `state "${mermaidText(title)}" as ${id(node)}`,
    ...details.map((text) => `${id(node)} : ${mermaidText(text)}`),
    ...(node.type === 'final' ? [`${id(node)} --> [*]`] : []),
  ];
}

/**
 * Mermaid reads `:` and `;` as syntax inside labels and `#`, quotes, braces and angle brackets as
 * markup; its `#code;` entities display them instead.
 */
export function mermaidText(text: string): string {
  const entities: Record<string, string> = {
    '#': '#35;',
    ';': '#59;',
    ':': '#58;',
    '"': '#quot;',
    '{': '#123;',
    '}': '#125;',
    '<': '#lt;',
    '>': '#gt;',
  };
  return text.replace(/[#;:"{}<>]/g, (char) => entities[char] ?? char).replace(/\s+/g, ' ');
}
