import { Graphviz } from '@hpcc-js/wasm';

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
