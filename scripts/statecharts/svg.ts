import { Graphviz } from '@hpcc-js/wasm';
import { guardedColor, type DotDiagram } from './dot.ts';

/**
 * Graphviz compiled to WebAssembly: the SVG comes out the same on every machine and in CI, with
 * no system `dot` and no browser. Loading the module is the slow part, so it happens once.
 */
interface DotRenderer {
  dot(source: string): string;
}

// @hpcc-js/wasm 2.35 types re-export from @hpcc-js/wasm-graphviz, which it does not install, so
// `Graphviz` is typed `any`; this pins the one method used here to its documented signature.
const loadGraphviz = (): Promise<DotRenderer> => Graphviz.load();

let graphviz: Promise<DotRenderer> | undefined;

export async function renderSvg(dot: string): Promise<string> {
  graphviz ??= loadGraphviz();
  return (await graphviz).dot(dot);
}

/** Graphviz draws in points; browsers show 1 pt as 4/3 px. */
export const pxPerPt = 4 / 3;

export interface RenderedDiagram {
  svg: string;
  /** Width and height the SVG asks for, in CSS pixels (it shrinks to a narrower window). */
  width: number;
  height: number;
}

/**
 * The SVG analysts open: Graphviz's drawing with each element's `<title>` (the browser's tooltip)
 * replaced by the technical names behind it, a legend of line styles under it, and a size in CSS
 * pixels that shrinks to the window (`max-width: 100%`) instead of running off its right edge.
 */
export async function renderDiagram(diagram: DotDiagram): Promise<RenderedDiagram> {
  const raw = await renderSvg(diagram.dot);
  const withTitles = raw.replace(
    /(<g id="([^"]+)" class="(?:node|edge|cluster)">\n<title>)[^<]*(<\/title>)/g,
    (whole, start: string, id: string, end: string) => {
      const title = diagram.titles.get(id);
      return title === undefined ? whole : `${start}${escapeXml(title)}${end}`;
    },
  );
  const size = /<svg width="([\d.]+)pt" height="([\d.]+)pt"\n viewBox="([\d. -]+)"/.exec(withTitles);
  if (!size) throw new Error('Graphviz output without the expected <svg width height viewBox>');
  const width = Number(size[1]);
  const height = Number(size[2]);
  const legend = legendSvg(width, height);
  const totalWidth = Math.max(width, legend.width);
  const totalHeight = height + legend.height;
  const pxWidth = Math.round(totalWidth * pxPerPt);
  const pxHeight = Math.round(totalHeight * pxPerPt);
  const svg = withTitles
    .replace(
      size[0],
      `<svg width="${pxWidth}px" height="${pxHeight}px" style="max-width: 100%; height: auto"\n viewBox="0.00 0.00 ${totalWidth.toFixed(2)} ${totalHeight.toFixed(2)}"`,
    )
    .replace(/<\/svg>\s*$/, `${legend.svg}</svg>\n`);
  return { svg, width: pxWidth, height: pxHeight };
}

interface LegendItem {
  /** A line sample (stroke style) or a glyph drawn in place of one. */
  sample: { kind: 'line'; color: string; dash?: string } | { kind: 'glyph'; text: string } | { kind: 'box' };
  text: string;
}

const legendItems: LegendItem[] = [
  {
    sample: { kind: 'line', color: '#444444' },
    text: 'an event or a task’s result moves to the state it points to',
  },
  {
    sample: { kind: 'line', color: guardedColor },
    text: 'guarded: taken only “if …” holds, else the “otherwise” line',
  },
  {
    sample: { kind: 'line', color: '#444444', dash: '5,2' },
    text: 'delayed: taken after a wait (“after 5 s”)',
  },
  {
    sample: { kind: 'line', color: '#444444', dash: '1,3' },
    text: 'immediately, as soon as its condition holds',
  },
  { sample: { kind: 'glyph', text: '↺' }, text: 'internal: handled without leaving the state' },
  { sample: { kind: 'glyph', text: '▸' }, text: 'what the state does while it is active' },
  { sample: { kind: 'box' }, text: 'lines from it leave from any state inside' },
  { sample: { kind: 'glyph', text: '●' }, text: 'where a state starts; hover for technical names' },
];

const rowHeight = 13;
const columnWidth = 330;

/** The legend, drawn in the diagram's point units below it; two columns when the diagram is wide enough. */
function legendSvg(width: number, height: number): { svg: string; width: number; height: number } {
  const columns = width >= columnWidth * 2 + 8 ? 2 : 1;
  const rows = Math.ceil(legendItems.length / columns);
  const top = height + 4;
  const font = 'font-family="Helvetica,sans-serif" font-size="9.00"';
  const parts = [
    `<g id="legend" class="legend">`,
    `<title>How to read this diagram</title>`,
    `<line x1="4" y1="${top}" x2="${(columns * columnWidth).toFixed(0)}" y2="${top}" stroke="#cccccc"/>`,
    `<text xml:space="preserve" x="8" y="${top + 13}" ${font} font-weight="bold">How to read this diagram</text>`,
  ];
  legendItems.forEach((item, index) => {
    const x = 8 + Math.floor(index / rows) * columnWidth;
    const y = top + 13 + rowHeight * (1 + (index % rows));
    const mid = y - 3;
    if (item.sample.kind === 'line') {
      const dash = item.sample.dash ? ` stroke-dasharray="${item.sample.dash}"` : '';
      parts.push(
        `<line x1="${x}" y1="${mid}" x2="${x + 30}" y2="${mid}" stroke="${item.sample.color}"${dash}/>`,
        `<polygon points="${x + 30},${mid - 3} ${x + 36},${mid} ${x + 30},${mid + 3}" fill="${item.sample.color}"/>`,
      );
    } else if (item.sample.kind === 'box') {
      parts.push(
        `<rect x="${x}" y="${mid - 5}" width="36" height="10" rx="3" fill="none" stroke="#444444" stroke-dasharray="3,2"/>`,
      );
    } else {
      parts.push(
        `<text xml:space="preserve" x="${x + 18}" y="${y}" text-anchor="middle" ${font}>${item.sample.text}</text>`,
      );
    }
    parts.push(`<text xml:space="preserve" x="${x + 44}" y="${y}" ${font}>${escapeXml(item.text)}</text>`);
  });
  parts.push('</g>\n');
  return { svg: parts.join('\n'), width: columns * columnWidth + 8, height: 13 + rowHeight * (rows + 1) + 8 };
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
