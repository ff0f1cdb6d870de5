import { planCases } from './cases.ts';
import type { LoadedModel } from './discover.ts';
import { toDot, type Layout } from './dot.ts';
import { buildPlan, measureCoverage } from './graph.ts';
import { checkLabels, MachineWording } from './labels.ts';
import { coverageText, indexMarkdown, machineMarkdown, type IndexEntry } from './markdown.ts';
import { toMermaid } from './mermaid.ts';
import { qaCases, toCsv, toJson } from './qa.ts';
import { listStates, listTransitions } from './structure.ts';
import { renderDiagram, type RenderedDiagram } from './svg.ts';

export interface GeneratedDocs {
  /** File name in docs/statecharts → content. */
  files: Map<string, string>;
  /** One line per machine: `name: states covered X/Y, transitions covered A/B`. */
  summaries: string[];
}

/** The width a diagram should fit in: a 1280 px window less the browser's margins and scrollbar. */
export const targetWidth = 1200;

const densities: Array<Layout['density']> = ['normal', 'compact', 'tight'];
const layouts = densities.flatMap((density): Layout[] => [
  { rankdir: 'LR', density },
  { rankdir: 'TB', density },
]);

/** Thrown when machines name things their labels do not describe; the message says what to add. */
export class MissingLabelsError extends Error {}

/**
 * Everything docs/statecharts should contain, computed in memory so `--check` can compare. Fails
 * before writing anything when a machine lacks words for something it names.
 */
export async function generateDocs(models: LoadedModel[]): Promise<GeneratedDocs> {
  const sorted = [...models].sort((a, b) => a.name.localeCompare(b.name));
  const wordings = sorted.map(
    (loaded) => new MachineWording(loaded.name, loaded.model.machine, loaded.labels, loaded.exportName),
  );
  const problems = wordings.flatMap((wording) => checkLabels(wording, listTransitions(wording.machine)));
  if (problems.length) {
    throw new MissingLabelsError(
      `Statecharts need words for everything a machine names (see docs/testing.md, "Statechart labels"):\n${problems.map((line) => `  ${line}`).join('\n')}`,
    );
  }
  const files = new Map<string, string>();
  const entries: IndexEntry[] = [];
  for (const [index, { name, model }] of sorted.entries()) {
    const wording = wordings[index];
    if (!wording) continue;
    const plan = buildPlan(model);
    const cases = planCases(model.name, plan);
    const coverage = measureCoverage(model, plan);
    const states = listStates(model.machine);
    const transitions = listTransitions(model.machine);
    const { layout, diagram } = await chooseLayout(wording);
    files.set(`${name}.svg`, diagram.svg);
    files.set(
      `${name}.md`,
      machineMarkdown({
        name,
        title: model.name,
        wording,
        mermaid: toMermaid(model.machine, wording, layout.rankdir),
        states,
        transitions,
        cases,
        coverage,
        layout: { rankdir: layout.rankdir, width: diagram.width },
      }),
    );
    const qa = qaCases(model, wording, cases);
    files.set(`${name}.paths.csv`, toCsv(qa));
    files.set(`${name}.paths.json`, toJson(model, name, wording, qa));
    entries.push({
      name,
      title: model.name,
      purpose: wording.purpose,
      spec: wording.spec,
      states: states.length,
      transitions: transitions.length,
      cases: cases.length,
      coverage,
    });
  }
  files.set('index.md', indexMarkdown(entries));
  return { files, summaries: entries.map((entry) => `${entry.name}: ${coverageText(entry.coverage)}`) };
}

/**
 * Left to right reads like a story and suits short chains; top to bottom suits wide machines;
 * narrower text suits big ones. Every layout is drawn: the roomiest density that fits
 * `targetWidth` in either direction wins (the shorter of the two if both fit); if none fits, the
 * narrowest drawing, which the SVG scales down to the window.
 */
async function chooseLayout(wording: MachineWording): Promise<{ layout: Layout; diagram: RenderedDiagram }> {
  const drawn = await Promise.all(
    layouts.map(async (layout) => ({
      layout,
      diagram: await renderDiagram(toDot(wording.machine, wording, layout)),
    })),
  );
  const fitting = densities
    .map(
      (density) =>
        drawn
          .filter(({ layout, diagram }) => layout.density === density && diagram.width <= targetWidth)
          .sort((a, b) => a.diagram.height - b.diagram.height)[0],
    )
    .find((candidate) => candidate !== undefined);
  const best = fitting ?? [...drawn].sort((a, b) => a.diagram.width - b.diagram.width)[0];
  if (!best) throw new Error(`${wording.name}: no layout drawn`);
  return best;
}
