import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { stateGroup, transitionGroup } from '../../scripts/statecharts/cases.ts';
import { loadModels } from '../../scripts/statecharts/discover.ts';
import { csvColumns, type QaPlanJson } from '../../scripts/statecharts/qa.ts';
import { describePathTests, type TestRegistrar } from '../machines/path-tests.ts';

/**
 * The committed docs/statecharts as analysts and QA receive them: diagram text in words, and each
 * machine's CSV path plan importable as a table that names exactly the path tests CI runs.
 */
const root = path.resolve(import.meta.dirname, '../..');
const dir = path.join(root, 'docs/statecharts');
const files = readdirSync(dir);
const svgs = files.filter((file) => file.endsWith('.svg'));
const csvs = files.filter((file) => file.endsWith('.paths.csv'));

/** The `<text>` contents of an SVG: what a person sees, as opposed to `<title>` tooltips. */
function svgTexts(svg: string): string[] {
  return [...svg.matchAll(/<text\b[^>]*>([^<]*)<\/text>/g)].map((match) => match[1] ?? '');
}

/** The names `describePathTests` gives the path tests of a model, recorded without running them. */
function pathTestNames(model: Parameters<typeof describePathTests>[0]): string[] {
  const names: string[] = [];
  const stack: string[] = [];
  const registrar: TestRegistrar = {
    describe: (name, body) => {
      stack.push(name);
      body();
      stack.pop();
    },
    it: (name) => {
      if (stack.at(-1) === stateGroup || stack.at(-1) === transitionGroup)
        names.push([...stack, name].join(' > '));
    },
  };
  describePathTests(model, registrar);
  return names;
}

describe('generated diagrams', () => {
  it('exist for every machine page', () => {
    const pages = files.filter((file) => file.endsWith('.md') && file !== 'index.md');
    expect(svgs.length).toBeGreaterThan(0);
    expect(svgs.map((file) => file.replace(/\.svg$/, ''))).toEqual(
      pages.map((file) => file.replace(/\.md$/, '')),
    );
  });

  it.each(svgs)('%s shows words, never an xstate. name', (file) => {
    const svg = readFileSync(path.join(dir, file), 'utf8');
    const texts = svgTexts(svg);
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.filter((text) => /xstate\./.test(text))).toEqual([]);
  });

  it.each(svgs)(
    '%s keeps technical names in tooltips, carries the legend and shrinks to the window',
    (file) => {
      const svg = readFileSync(path.join(dir, file), 'utf8');
      expect(svg).toMatch(/<svg width="\d+px" height="\d+px" style="max-width: 100%; height: auto"/);
      expect(svgTexts(svg)).toEqual(expect.arrayContaining(['How to read this diagram']));
      for (const style of ['guarded', 'delayed', 'internal']) {
        expect(svgTexts(svg).some((text) => text.startsWith(style))).toBe(true);
      }
      // Every transition line's tooltip is its technical label and target.
      expect(svg).toMatch(/<g id="t\d+" class="edge">\n<title>[^<]+ → [^<]+<\/title>/);
    },
  );
});

describe('QA path plans', () => {
  it('exist for every diagram', () => {
    expect(csvs.map((file) => file.replace(/\.paths\.csv$/, ''))).toEqual(
      svgs.map((file) => file.replace(/\.svg$/, '')),
    );
  });

  it.each(csvs)(
    '%s imports as a table: a header and one row per path test, in the same order',
    async (file) => {
      const name = file.replace(/\.paths\.csv$/, '');
      const [loaded] = await loadModels(root, [name]);
      if (!loaded) throw new Error(`no model for ${name}`);
      const expected = pathTestNames(loaded.model);

      const records: string[][] = parse(readFileSync(path.join(dir, file), 'utf8'), { relax_quotes: false });
      const [header, ...rows] = records;
      expect(header).toEqual([...csvColumns]);
      expect(rows.every((row) => row.length === csvColumns.length)).toBe(true);
      expect(rows.map((row) => row[6])).toEqual(expected);
      const ids = rows.map((row) => row[0] ?? '');
      expect(new Set(ids).size).toBe(ids.length);
      // Each test's name starts with its case id, so a failing CI test names the QA case.
      rows.forEach((row) => expect(row[6]).toContain(`> ${row[0]}: `));

      for (const row of rows) {
        const steps = (row[4] ?? '').split('\n');
        const results = (row[5] ?? '').split('\n');
        expect(steps.map((step) => step.split('. ')[0])).toEqual(steps.map((_, index) => String(index + 1)));
        expect(results.map((result) => result.split('. ')[0])).toEqual(
          steps.map((_, index) => String(index + 1)),
        );
        expect(steps.join('\n')).not.toMatch(/^\d+\. xstate\./m);
      }

      const json: QaPlanJson = JSON.parse(readFileSync(path.join(dir, `${name}.paths.json`), 'utf8'));
      expect(json.cases.map((qaCase) => qaCase.id)).toEqual(ids);
      expect(json.cases.map((qaCase) => qaCase.automatedTest)).toEqual(expected);
      expect(json.cases.map((qaCase) => qaCase.steps.length)).toEqual(
        rows.map((row) => (row[4] ?? '').split('\n').length),
      );
    },
  );
});
