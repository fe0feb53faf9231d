// Lint rules: the recommended sets of ESLint and typescript-eslint, plus a few that catch real bugs
// in async code (floating promises are how a poll silently stops).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['src/**/*.ts', 'test/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'smart'],
      // `import { z }` is zod's whole `z` object, which the bundle cannot trim; as a namespace only what the schemas use.
      'no-restricted-syntax': [
        'error',
        {
          selector: "ImportDeclaration[source.value='zod'][importKind!='type'] > ImportSpecifier[imported.name='z'][importKind!='type']",
          message: "import * as z from 'zod' (scripts/bundle.mjs says why).",
        },
      ],
    },
  },
  {
    // What the bin runs: one call of localeCompare and Node keeps ICU's collation data for good, about 3 MB of RSS
    // (src/rules/order.ts says what to use). The simulator and the bench run beside the bridge, not in it.
    files: ['src/**/*.ts'],
    ignores: ['src/simulator/**', 'src/bench/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'localeCompare', message: 'textCompare, idCompare or plCompare from src/rules/order.ts: localeCompare loads ICU collation.' },
      ],
    },
  },
  {
    // The board's browser code: only types come from the server's modules (the bundle must not pull
    // them in), and nothing of Node.
    files: ['src/outputs/web/browser/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['../*'], allowTypeImports: true, message: 'The browser code imports only types from outside src/outputs/web/browser/.' },
          ],
        },
      ],
      'no-restricted-globals': ['error', 'Buffer', 'process', 'global', 'require', '__dirname', '__filename'],
    },
  },
);
