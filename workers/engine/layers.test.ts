// The layers and the no-circle rule are enforced by `npm run lint` (dependency-cruiser with
// .dependency-cruiser.cjs): these small trees of files, cruised with the repository's own rules,
// check that each rule bites — and that what is allowed stays allowed.

import { cruise, type IFlattenedRuleSet } from 'dependency-cruiser';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { forbidden: IFlattenedRuleSet['forbidden'] };

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/** The rules each file of `files` breaks, as "rule: from → to". */
async function violations(files: Record<string, string>): Promise<string[]> {
  tree = mkdtempSync(join(tmpdir(), 'layers-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  const { output } = await cruise(roots, {
    baseDir: tree,
    validate: true,
    ruleSet: { forbidden: config.forbidden },
    tsPreCompilationDeps: true,
    outputType: 'json',
  });
  const result = JSON.parse(output as string) as { summary: { violations: Array<{ rule: { name: string }; from: string; to: string }> } };
  return result.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
}

const leaf = 'export const x = 1;\n';
const uses = (path: string) => `import { x } from '${path}';\nexport const y = x;\n`;
const usesType = (path: string) => `import type { X } from '${path}';\nexport type Y = X;\n`;

describe('the layers (npm run lint)', () => {
  it('refuses the engine anything around it, for types too', async () => {
    expect(
      await violations({
        'workers/engine/a.ts': uses('../hosts/prepareRun.ts'),
        'workers/engine/b.ts': usesType('../backends/http/http.ts'),
        'workers/engine/c.ts': uses('../../tools/python/python.ts'),
        'workers/hosts/prepareRun.ts': leaf,
        'workers/backends/http/http.ts': 'export interface X { x: number }\n',
        'tools/python/python.ts': leaf,
      }),
    ).toEqual([
      'layer-engine: workers/engine/a.ts → workers/hosts/prepareRun.ts',
      'layer-engine: workers/engine/b.ts → workers/backends/http/http.ts',
      'layer-engine: workers/engine/c.ts → tools/python/python.ts',
    ]);
  });

  it('keeps evaluation below its hosts and its domains: they implement its ports', async () => {
    expect(
      await violations({
        'workers/eval/policies.ts': uses('../hosts/prepareRun.ts'),
        'workers/eval/runner.ts': uses('../domains/environment.ts'),
        'workers/domains/environment.ts': uses('../eval/suite.ts'),
        'workers/eval/suite.ts': uses('../engine/types.ts'),
        'workers/hosts/prepareRun.ts': leaf,
        'workers/engine/types.ts': leaf,
      }),
    ).toEqual([
      'layer-eval: workers/eval/policies.ts → workers/hosts/prepareRun.ts',
      'layer-eval: workers/eval/runner.ts → workers/domains/environment.ts',
    ]);
  });

  it('keeps each tool and each backend kind in its own folder, on the engine alone', async () => {
    expect(
      await violations({
        'tools/search/wikipedia.ts': uses('../../workers/backends/http/limits.ts'),
        'tools/custom/customTool.ts': uses('../javascript/javascriptTool.ts'),
        'tools/javascript/javascriptTool.ts': uses('../sandbox/workerHost.ts'),
        'tools/sandbox/workerHost.ts': uses('../../workers/engine/ports.ts'),
        'workers/backends/gguf/model.ts': uses('../webllm/constraint.ts'),
        'workers/backends/webllm/constraint.ts': uses('../http/sse.ts'),
        'workers/backends/http/sse.ts': uses('../../engine/errors.ts'),
        'workers/backends/http/limits.ts': leaf,
        'workers/engine/ports.ts': leaf,
        'workers/engine/errors.ts': leaf,
      }),
    ).toEqual([
      'backend-kind-alone: workers/backends/gguf/model.ts → workers/backends/webllm/constraint.ts',
      'layer-tools: tools/search/wikipedia.ts → workers/backends/http/limits.ts',
      'tool-alone: tools/custom/customTool.ts → tools/javascript/javascriptTool.ts',
    ]);
  });

  it('lets the app and the CLI use the hosts, never the other way round', async () => {
    expect(
      await violations({
        'app/worker/client.ts': uses('../../workers/hosts/messages.ts'),
        'workers/hosts/messages.ts': uses('../../app/state/store.ts'),
        'cli/run.ts': uses('../app/state/store.ts'),
        'app/state/store.ts': leaf,
      }),
    ).toEqual(['layer-cli: cli/run.ts → app/state/store.ts', 'layer-hosts: workers/hosts/messages.ts → app/state/store.ts']);
  });

  it('refuses test support in production code, and lets tests import across layers', async () => {
    expect(
      await violations({
        'workers/hosts/x.ts': uses('../../e2e/fixtures/doubles.ts'),
        'workers/engine/x.test.ts': `${uses('../hosts/x.ts')}${uses('../../e2e/fixtures/doubles.ts').replace('x }', 'x as z }').replace('y =', 'w =').replace('= x', '= z')}`,
        'e2e/fixtures/doubles.ts': leaf,
      }),
    ).toEqual([
      'layer-hosts: workers/hosts/x.ts → e2e/fixtures/doubles.ts',
      'no-test-support-in-production: workers/hosts/x.ts → e2e/fixtures/doubles.ts',
    ]);
  });
});

describe('import circles (npm run lint)', () => {
  it('refuses a circle anywhere, through types too, and a longer one (each circle named once)', async () => {
    const found = await violations({
      'app/state/evaluation.ts': uses('./session.ts'),
      'app/state/session.ts': usesType('./evaluation.ts'),
      'workers/engine/a.ts': uses('./b.ts'),
      'workers/engine/b.ts': uses('./c.ts'),
      'workers/engine/c.ts': uses('./a.ts'),
    });
    expect(found).toEqual(['no-circular: app/state/evaluation.ts → app/state/session.ts', 'no-circular: workers/engine/a.ts → workers/engine/b.ts']);
  });

  it('finds none in a tree whose imports go one way', async () => {
    expect(await violations({ 'workers/engine/a.ts': uses('./b.ts'), 'workers/engine/b.ts': leaf })).toEqual([]);
  });
});
