import type { LoadedModel } from './discover.ts';
import { toDot } from './dot.ts';
import { buildPlan, measureCoverage } from './graph.ts';
import { coverageText, indexMarkdown, machineMarkdown, type IndexEntry } from './markdown.ts';
import { toMermaid } from './mermaid.ts';
import { listStates, listTransitions } from './structure.ts';
import { renderSvg } from './svg.ts';

export interface GeneratedDocs {
  /** File name in docs/statecharts → content. */
  files: Map<string, string>;
  /** One line per machine: `name: states covered X/Y, transitions covered A/B`. */
  summaries: string[];
}

/** Everything docs/statecharts should contain, computed in memory so `--check` can compare. */
export async function generateDocs(models: LoadedModel[]): Promise<GeneratedDocs> {
  const files = new Map<string, string>();
  const entries: IndexEntry[] = [];
  for (const { name, model } of [...models].sort((a, b) => a.name.localeCompare(b.name))) {
    const plan = buildPlan(model);
    const coverage = measureCoverage(model, plan);
    const states = listStates(model.machine);
    files.set(`${name}.svg`, await renderSvg(toDot(model.machine)));
    files.set(
      `${name}.md`,
      machineMarkdown({ name, title: model.name, mermaid: toMermaid(model.machine), states, plan, coverage }),
    );
    entries.push({
      name,
      title: model.name,
      states: states.length,
      transitions: listTransitions(model.machine).length,
      coverage,
    });
  }
  files.set('index.md', indexMarkdown(entries));
  return { files, summaries: entries.map((entry) => `${entry.name}: ${coverageText(entry.coverage)}`) };
}
