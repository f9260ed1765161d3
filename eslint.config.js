import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every Node built-in, with and without the `node:` prefix.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

export default defineConfig(
  globalIgnores(['dist/', 'dist-e2e/', 'public/generated/', 'test-results/', 'playwright-report/', 'blob-report/', 'coverage/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['app/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['workers/**/*.ts'],
    languageOptions: { globals: globals.worker },
  },
  {
    files: ['cli/**', 'bench/**', 'e2e/**', 'server/**', '*.config.{js,ts}'],
    languageOptions: { globals: globals.node },
  },
  {
    // Tools run in the orchestrator's worker as well as under Node (the CLI, corpus writer).
    files: ['tools/**'],
    languageOptions: { globals: { ...globals.worker, ...globals.node } },
  },
  {
    // A domain's tools (docs/evaluation.md) are a plain script run in the QuickJS sandbox: its
    // top-level functions are the tools, called by name, and nothing of a browser or Node exists.
    files: ['tools/domains/*/tools.js'],
    languageOptions: { sourceType: 'script', globals: {} },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { vars: 'local', args: 'none' }],
    },
  },
  {
    // The engine runs unchanged in a worker, in Node tests and in the CLI: no DOM, no Node, no React.
    // So do the evaluation domains, but for the Node reader of their folders. Tests run under Node
    // (real HTTP servers) and are exempt.
    files: ['workers/engine/**/*.ts', 'tools/domains/**/*.ts'],
    ignores: ['**/*.test.ts', 'tools/domains/nodeDomains.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'indexedDB', 'process'].map((name) => ({
          name,
          message: `The engine is pure TypeScript: \`${name}\` belongs to the host (app/, a worker host, cli/).`,
        })),
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [...nodeBuiltins, 'react', 'react-dom'].map((name) => ({
            name,
            message: 'The engine is pure TypeScript: Node APIs and React belong to the host.',
          })),
          patterns: [
            {
              group: ['node:*', 'react/*', 'react-dom/*'],
              message: 'The engine is pure TypeScript: Node APIs and React belong to the host.',
            },
          ],
        },
      ],
    },
  },
);
