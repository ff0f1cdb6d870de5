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
 * A state's or transition's `description` in a machine is read by nothing at run time: it is the
 * text of the exported diagrams (docs/statecharts), where `npm run statecharts -- --check` fails
 * when one changes. Mutating it can only make survivors that no vitest test could ever kill.
 */
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'statechart-descriptions', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      const property = path.parentPath;
      if (!property?.isObjectProperty() || property.node.value !== path.node) return undefined;
      const key = property.node.key;
      const named = key.type === 'Identifier' ? key.name : key.type === 'StringLiteral' ? key.value : undefined;
      return named === 'description' && (path.isStringLiteral() || path.isTemplateLiteral()) && inMachineConfig(path)
        ? 'A statechart description only feeds docs/statecharts, which `npm run statecharts -- --check` guards'
        : undefined;
    },
  }),
];
