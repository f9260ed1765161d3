// The layers and their one direction (docs/architecture.md, "Layers"), checked by `npm run lint`:
//
//   app, cli  →  workers/hosts  →  backends, tools, domains, eval, history, storage  →  workers/engine
//
// A layer imports only the layers below it (tests may import anything), no module imports a
// test, a benchmark or e2e/, and no import circle is allowed anywhere. layers.test.ts shows each
// rule refusing an import.

const TESTS = '\\.(test|spec)\\.tsx?$';
const LOCAL = '^(app|bench|cli|e2e|server|tools|workers)/';

/** A layer: the folder, and the folders it may import besides itself and npm packages. */
const LAYERS = {
  engine: { path: '^workers/engine/', may: [] },
  eval: { path: '^workers/eval/', may: ['^workers/engine/'] },
  history: { path: '^workers/history/', may: ['^workers/engine/'] },
  storage: { path: '^workers/storage/', may: ['^workers/engine/'] },
  // A domain implements evaluation's port (eval/domainPort.ts): evaluation owns it, never imports it.
  domains: { path: '^workers/domains/', may: ['^workers/engine/', '^workers/eval/'] },
  backends: { path: '^workers/backends/', may: ['^workers/engine/'] },
  tools: { path: '^tools/', may: ['^workers/engine/'] },
  hosts: { path: '^workers/hosts/', may: ['^workers/(engine|eval|history|storage|domains|backends)/', '^tools/'] },
  server: { path: '^server/', may: ['^workers/', '^tools/'] },
  // The app and the CLI may show the examples of cli/examples/ (data, not code).
  app: { path: '^app/', may: ['^workers/', '^tools/', '^cli/examples/'] },
  cli: { path: '^cli/', may: ['^workers/', '^tools/', '^server/'] },
};

const layerRules = Object.entries(LAYERS).map(([name, layer]) => ({
  name: `layer-${name}`,
  comment: `${layer.path.slice(1)} may import only ${[layer.path, ...layer.may].map((p) => p.slice(1)).join(', ')} (docs/architecture.md, "Layers").`,
  severity: 'error',
  from: { path: layer.path, pathNot: TESTS },
  to: { path: LOCAL, pathNot: [layer.path, ...layer.may].join('|') },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: two modules that need each other are one idea, or one of them needs a port (docs/architecture.md, "Rules").',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    {
      name: 'backend-kind-alone',
      comment: 'A backend kind is one folder: it imports the engine and the shared http/ folder, never another kind or the registry.',
      severity: 'error',
      from: { path: '^workers/backends/([^/]+)/', pathNot: TESTS },
      to: { path: '^workers/backends/', pathNot: '^workers/backends/($1|http)/' },
    },
    {
      name: 'tool-alone',
      comment: 'A tool is one folder: it imports the engine\'s ports and what every sandbox shares (tools/sandbox/), never another tool.',
      severity: 'error',
      from: { path: '^tools/([^/]+)/', pathNot: TESTS },
      to: { path: '^tools/', pathNot: '^tools/($1|sandbox)/' },
    },
    {
      name: 'no-test-support-in-production',
      comment: 'Tests, benchmarks and e2e/ (doubles, fixtures) are for tests: production code cannot import them.',
      severity: 'error',
      from: { path: LOCAL, pathNot: `${TESTS}|^(bench|e2e)/` },
      to: { path: `${TESTS}|^(bench|e2e)/` },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|dist-e2e|public/generated|test-results|playwright-report)/' },
    // Type-only imports count: a circle through types is still two ideas tied together.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
