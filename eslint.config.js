import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import { importX } from 'eslint-plugin-import-x';
import globals from 'globals';

// The one-way flow views → machines → services → schemas is enforced here: each zone lists what it may not import.
const layerBoundaries = [
  { target: './src/schemas', from: ['./src/views', './src/machines', './src/services', './server'] },
  { target: './src/domain', from: ['./src/views', './src/machines', './src/services', './server'] },
  { target: './src/services', from: ['./src/views', './src/machines', './server'] },
  { target: './src/machines', from: ['./src/views', './server'] },
  { target: './src/views', from: ['./src/services', './server'] },
  { target: './server', from: ['./src/views', './src/machines', './src/services', './src/main.tsx'] },
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'docs', '.data', 'test-results', 'playwright-report', 'scratch', 'dist-server', '.stryker-tmp', 'reports'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver': { typescript: true, node: true } },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: layerBoundaries }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-assertions': ['error', { assertionStyle: 'never' }],
    },
  },
  {
    files: ['src/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    rules: { ...reactHooks.configs.recommended.rules, ...jsxA11y.configs.recommended.rules },
  },
  {
    // Tests and tooling build fixtures from loose JSON; casts there are deliberate.
    files: ['tests/**', 'scripts/**', 'bench/**', 'server/**'],
    rules: { '@typescript-eslint/consistent-type-assertions': 'off' },
  },
);
