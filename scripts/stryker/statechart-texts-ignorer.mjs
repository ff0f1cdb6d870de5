// @ts-check
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

/** Inside `createMachine({...})` or `setup(...).createMachine({...})`, not some other object's description. */
const inMachineConfig = (/** @type {import('@babel/core').NodePath} */ path) =>
  path.findParent((parent) => {
    if (!parent.isCallExpression()) return false;
    const callee = parent.node.callee;
    if (callee.type === 'Identifier') return callee.name === 'createMachine';
    return callee.type === 'MemberExpression' && callee.property.type === 'Identifier' && callee.property.name === 'createMachine';
  }) !== null;

/**
 * The `id` of the machine itself (a property of the object passed to createMachine), when no target
 * in its file refers to it as `#id`: then nothing reads it at run time.
 */
function isUnreferencedMachineId(/** @type {import('@babel/core').NodePath<import('@babel/types').StringLiteral>} */ path, /** @type {import('@babel/core').NodePath} */ property) {
  const config = property.parentPath;
  const call = config?.parentPath;
  if (!config?.isObjectExpression() || !call?.isCallExpression() || !inMachineConfig(config)) return false;
  if (call.node.arguments[0] !== config.node) return false;
  const code = /** @type {{ file?: { code?: string } } | undefined} */ (path.hub)?.file?.code ?? '';
  return !code.includes(`'#${path.node.value}`) && !code.includes(`"#${path.node.value}`);
}

/** `export const statechartLabels = {...}`: the words of a machine's diagram (machine-labels.ts). */
const isLabelsDeclaration = (/** @type {import('@babel/core').NodePath} */ path) =>
  path.isVariableDeclarator() && path.node.id.type === 'Identifier' && path.node.id.name === 'statechartLabels';

/**
 * A machine's state and transition `description`s and its `statechartLabels` are read by nothing at
 * run time: they are the text of the exported diagrams and QA plans (docs/statecharts), where
 * `npm run statecharts -- --check` fails when one changes. So is a machine's own id when no target
 * names it. Mutating them can only make survivors that no vitest test could ever kill.
 */
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'statechart-texts', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      if (isLabelsDeclaration(path)) return 'statechartLabels only feed docs/statecharts, which `npm run statecharts -- --check` guards';
      const property = path.parentPath;
      if (!property?.isObjectProperty() || property.node.value !== path.node) return undefined;
      const key = property.node.key;
      const named = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
      if (named === 'id' && path.isStringLiteral() && isUnreferencedMachineId(path, property)) {
        return "A machine's id only names its diagram and QA cases (docs/statecharts), which `npm run statecharts -- --check` guards";
      }
      return named === 'description' && (path.isStringLiteral() || path.isTemplateLiteral()) && inMachineConfig(path)
        ? 'A statechart description only feeds docs/statecharts, which `npm run statecharts -- --check` guards'
        : undefined;
    },
  }),
];
