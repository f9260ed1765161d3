import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Every Node built-in, with and without the `node:` prefix.
const nodeBuiltins = builtinModules.filter((name) => !name.startsWith('_'));

// Test doubles, fixtures and the scripted server live under e2e/ (docs/architecture.md): tests
// import them, production code never does.
// What a pure module (the engine, evaluation, the domains) may not import: Node APIs and React.
const PURE_MESSAGE = 'The engine is pure TypeScript: Node APIs and React belong to the host.';
const pureImportPaths = [...nodeBuiltins, 'react', 'react-dom'].map((name) => ({ name, message: PURE_MESSAGE }));
const pureImportPattern = { group: ['node:*', 'react/*', 'react-dom/*'], message: PURE_MESSAGE };
const noTestSupport = {
  regex: '(^|/)e2e/',
  message: 'Test doubles and fixtures (e2e/) are for tests: production code cannot import them.',
};

// The engine's boundary (docs/architecture.md, "Boundaries"): it needs nothing from the layers
// around it. What it needs from them is an interface in the engine (types.ts, errors.ts,
// ports.ts) that they implement; workers/hosts/prepareRun.ts plugs them in.
/** A pure module's import rule, with `extra` patterns (one rule entry: the last one for a file
 * wins, so a stricter folder repeats the whole ban). */
const pureImports = (...extra) => ['error', { paths: pureImportPaths, patterns: [pureImportPattern, noTestSupport, ...extra] }];

const engineBoundary = [
  {
    regex: '(^|/)(backends|models|storage|offline)/',
    message: 'The engine imports nothing from the backends or the worker hosts: put the interface it needs in the engine (types.ts, errors.ts, ports.ts) and implement it there.',
  },
  {
    regex: '(^|/)tools/',
    message: 'The engine imports nothing from tools/: the tools implement its ports (workers/engine/ports.ts).',
  },
  {
    regex: '(^|/)(app|cli|eval)/|(^|/)(prepareRun|orchestrator\\.worker|messages|keys)\\.ts$',
    message: 'The engine does not know its hosts: the app, the CLI, evaluation and the worker compose it, not the other way round.',
  },
];

// The engine's public entry points: all app/ may import of it (docs/architecture.md,
// "Boundaries"). Each is a module of its own, not one barrel: a barrel would keep every module's
// top-level work (zod schemas and all) in whichever chunk imports it, the first load included.
export const ENGINE_ENTRY_POINTS = [
  'types.ts', // ChatModel, Tool, messages; a person's turn as the orchestrator (HumanTurn, HumanChoice)
  'events.ts', // the event stream, and where a fork goes on from (ForkFrom)
  'config.ts', // the config's schema and types (zod: loaded off the first screen)
  'configBasics.ts', // the config's names, limits and bounds without zod
  'configExperts.ts', // which experts a config's run uses, without zod
  'presets.ts',
  'preferences.ts', // the preference vector
  'preferenceSchema.ts', // its check (zod)
  'pricing.ts',
  'reward.ts', // the paper's group reward
  'format.ts', // figures and cut text as everything writes them
  'ids.ts', // run and evaluation ids
  'toolSchema.ts', // a tool's parameters as a person writes them, checked against the engine's meta-schema
  'validateArguments.ts', // arguments checked as the engine checks them before a tool runs (Try it)
  'ports.ts', // what the engine needs from the outside (types only): a sandbox the page drives (Try it)
];

const appEngineBoundary = {
  regex: `(^|/)workers/engine/(?!(${ENGINE_ENTRY_POINTS.map((file) => file.replace('.', '\\.')).join('|')})$)`,
  message: `The app imports only the engine's entry points (${ENGINE_ENTRY_POINTS.join(', ')}; eslint.config.js): export what it needs from one of them, or add an entry point in docs/architecture.md ("Boundaries").`,
};

// No hidden module state in the page (docs/architecture.md; app/state/README.md): what the page
// remembers lives in stores and flows made by factories (app/state/appStores.ts) and reached
// through React context, so a test makes a fresh set and two never share state. At the top level
// of an app/ module this refuses a `let`/`var`, a `new Map/Set/WeakMap/WeakSet`, and a zustand
// store made there (`create`/`createStore` called at import time instead of in a factory).
const MUTABLE_CONTAINERS = new Set(['Map', 'Set', 'WeakMap', 'WeakSet']);
const ZUSTAND_MODULES = new Set(['zustand', 'zustand/vanilla']);
export const noModuleState = {
  meta: {
    type: 'problem',
    docs: { description: 'Refuses mutable state at the top level of a module (app/): it belongs in a store factory.' },
    messages: {
      variable: "A module-level `{{kind}}` is state every user of the module shares: make it inside a factory (a store or a flow in app/state/), or a `const` if it never changes.",
      container: 'A module-level `new {{name}}` is state every user of the module shares: make it inside a factory (a store or a flow in app/state/).',
      store: 'A store made at import time is one global store: make it in a factory (app/state/appStores.ts) and reach it through React context.',
    },
    schema: [],
  },
  create(context) {
    const zustandCreators = new Set();
    const topLevel = (statement) => (statement.type === 'ExportNamedDeclaration' || statement.type === 'ExportDefaultDeclaration' ? statement.declaration : statement);
    /** `create<S>()(...)`, `create(...)` or `createStore(...)` from zustand, however deep the currying. */
    const madeByZustand = (node) => {
      let callee = node;
      while (callee?.type === 'CallExpression') callee = callee.callee;
      return callee?.type === 'Identifier' && zustandCreators.has(callee.name);
    };
    const checkValue = (node) => {
      const value = node?.type === 'TSAsExpression' || node?.type === 'TSSatisfiesExpression' ? node.expression : node;
      if (value?.type === 'NewExpression' && value.callee.type === 'Identifier' && MUTABLE_CONTAINERS.has(value.callee.name)) {
        context.report({ node: value, messageId: 'container', data: { name: value.callee.name } });
      } else if (value?.type === 'CallExpression' && madeByZustand(value)) {
        context.report({ node: value, messageId: 'store' });
      }
    };
    return {
      ImportDeclaration(node) {
        if (!ZUSTAND_MODULES.has(node.source.value)) return;
        for (const specifier of node.specifiers) {
          if (specifier.type === 'ImportSpecifier' && ['create', 'createStore'].includes(specifier.imported.name)) zustandCreators.add(specifier.local.name);
        }
      },
      'Program:exit'(program) {
        for (const statement of program.body) {
          const declaration = topLevel(statement);
          if (declaration?.type === 'VariableDeclaration') {
            if (declaration.kind === 'let' || declaration.kind === 'var') {
              context.report({ node: declaration, messageId: 'variable', data: { kind: declaration.kind } });
            } else {
              for (const declarator of declaration.declarations) checkValue(declarator.init);
            }
          } else if (declaration?.type === 'ExpressionStatement') {
            checkValue(declaration.expression);
          } else if (declaration && declaration.type !== 'FunctionDeclaration' && declaration.type !== 'ClassDeclaration') {
            checkValue(declaration);
          }
        }
      },
    };
  },
};

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
    files: ['*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    // Production code (everything but tests, benchmarks and e2e/) cannot import test support.
    files: ['app/**/*.{ts,tsx}', 'workers/**/*.ts', 'tools/**/*.ts', 'cli/**/*.ts', 'server/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestSupport] }] },
  },
  {
    // The page reaches the engine through its entry points only (one rule entry: the last one for a
    // file wins, so it repeats the test-support ban). Tests may drive the engine whole.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noTestSupport, appEngineBoundary] }] },
  },
  {
    // Tools run in the orchestrator's worker as well as under Node (the CLI, corpus writer).
    files: ['tools/**'],
    languageOptions: { globals: { ...globals.worker, ...globals.node } },
  },
  {
    // A domain's tools (docs/evaluation.md) are a plain script run in the QuickJS sandbox: its
    // top-level functions are the tools, called by name, and nothing of a browser or Node exists.
    files: ['workers/domains/*/tools.js'],
    languageOptions: { sourceType: 'script', globals: {} },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { vars: 'local', args: 'none' }],
    },
  },
  {
    // The engine runs unchanged in a worker, in Node tests and in the CLI: no DOM, no Node, no React.
    // So do the evaluation domains (τ²'s included). Tests run under Node (real HTTP servers) and
    // are exempt.
    files: ['workers/engine/**/*.ts', 'workers/domains/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'indexedDB', 'process'].map((name) => ({
          name,
          message: `The engine is pure TypeScript: \`${name}\` belongs to the host (app/, a worker host, cli/).`,
        })),
      ],
      'no-restricted-imports': pureImports(),
    },
  },
  {
    // The engine's boundary, on top of the purity rule above (one rule entry: the last one for a
    // file wins, so it repeats the Node and React ban).
    files: ['workers/engine/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': pureImports(...engineBoundary),
    },
  },
  {
    // No module-level mutable state in the page: stores and flows are made by factories
    // (app/state/README.md). Tests make their own.
    files: ['app/**/*.{ts,tsx}'],
    ignores: ['**/*.test.ts'],
    plugins: { orchestra: { rules: { 'no-module-state': noModuleState } } },
    rules: { 'orchestra/no-module-state': 'error' },
  },
  {
    // A function that needs more than 80 lines is doing several things: name them (issue 22).
    // The few left say why where they start (eslint-disable-next-line … -- why).
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts', 'e2e/fixtures/reference/**'],
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
);
