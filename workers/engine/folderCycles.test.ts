// No two folders need each other. dependency-cruiser's module rule (no-circular, in `npm run
// lint`) sees circles of modules only: app/state/a.ts → app/storage/b.ts → app/state/c.ts is no
// module circle, but it ties two folders into one idea. This test cruises the production modules
// (tests, bench/, e2e/ and testing/ folders aside: they may import anything) and counts the
// circles in dependency-cruiser's own folder graph (`folders`, where a folder holds its
// subfolders, so a subfolder may use its parent's ports but the two are never each other's
// dependency both ways). Small trees below show the count biting.

import { cruise, type ICruiseOptions } from 'dependency-cruiser';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const config = createRequire(import.meta.url)('../../.dependency-cruiser.cjs') as { options: ICruiseOptions };

/** What only tests use (as .dependency-cruiser.cjs says), and what is never cruised. */
const LEFT_OUT = '\\.(test|spec)\\.tsx?$|^(bench|e2e)/|/testing/|(^|/)(node_modules|dist|dist-e2e|public/generated|test-results|playwright-report)/';

/** The one folder circle that is known and going: modules of the page's state, storage and worker
 * folders read the Evaluate tab's view helpers (evalView.ts, tau2View.ts), which import the state;
 * issue 33's engineer (branch `eval`) moves those helpers out, and then this list is empty. An
 * import of app/components/Evaluate/ from outside app/components/ is left out of the count. */
const KNOWN = (from: string, to: string) => to.startsWith('app/components/Evaluate/') && !from.startsWith('app/components/');

interface CruisedModule {
  source: string;
  dependencies: Array<{ resolved: string }>;
}
interface CruisedFolder {
  name: string;
  dependencies: Array<{ name: string }>;
}

/** dependency-cruiser's module and folder graphs of `roots` under `baseDir`, production only. */
async function cruiseFolders(roots: string[], baseDir: string, options: ICruiseOptions = {}): Promise<{ modules: CruisedModule[]; folders: CruisedFolder[] }> {
  const { output } = await cruise(roots, { ...options, baseDir, tsPreCompilationDeps: true, metrics: true, outputType: 'json', exclude: { path: LEFT_OUT }, validate: false });
  return JSON.parse(output as string) as { modules: CruisedModule[]; folders: CruisedFolder[] };
}

/** The circles of the folder graph (strongly connected sets of two or more folders), each sorted. */
function circles(folders: CruisedFolder[], leaveOut: (from: string, to: string) => boolean = () => false): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const folder of folders) {
    for (const dependency of folder.dependencies) {
      if (leaveOut(folder.name, dependency.name)) continue;
      if (!edges.has(folder.name)) edges.set(folder.name, new Set());
      edges.get(folder.name)!.add(dependency.name);
    }
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    order.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, order.get(next)!));
    }
    if (low.get(node) !== order.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!order.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The folder edges that only the known modules' imports make: those are left out of the count. */
function knownFolderEdges(modules: CruisedModule[]): (from: string, to: string) => boolean {
  const all = new Map<string, number>();
  const known = new Map<string, number>();
  for (const module of modules) {
    for (const dependency of module.dependencies) {
      const key = `${dirname(module.source)} → ${dirname(dependency.resolved)}`;
      all.set(key, (all.get(key) ?? 0) + 1);
      if (KNOWN(module.source, dependency.resolved)) known.set(key, (known.get(key) ?? 0) + 1);
    }
  }
  return (from, to) => {
    const key = `${from} → ${to}`;
    return known.has(key) && known.get(key) === all.get(key);
  };
}

describe('folder circles in this repository', () => {
  it('there are none, the known one aside', async () => {
    const { modules, folders } = await cruiseFolders(['app', 'workers', 'tools', 'cli', 'server'], ROOT, config.options);
    expect(folders.length).toBeGreaterThan(50);
    expect(circles(folders, knownFolderEdges(modules))).toEqual([]);
    // The known one is all there is besides: each circle left runs through app/components/Evaluate.
    for (const circle of circles(folders)) expect(circle).toContain('app/components/Evaluate');
  }, 60_000);
});

let tree: string | undefined;
afterEach(() => {
  if (tree) rmSync(tree, { recursive: true, force: true });
  tree = undefined;
});

/** The folder circles of a small tree of files. */
async function circlesOf(files: Record<string, string>): Promise<string[][]> {
  tree = mkdtempSync(join(tmpdir(), 'folders-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), text);
  }
  const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  return circles((await cruiseFolders(roots, tree)).folders);
}

const leaf = 'export const x = 1;\n';
const uses = (...paths: string[]) => `${paths.map((path, i) => `import { x as x${i} } from '${path}';`).join('\n')}\nexport const y = 1;\n`;

describe('the count (it bites)', () => {
  it('finds two folders whose modules need each other, though no module circle exists', async () => {
    expect(
      await circlesOf({
        'app/state/a.ts': uses('../storage/b.ts'),
        'app/storage/b.ts': leaf,
        'app/storage/c.ts': uses('../state/d.ts'),
        'app/state/d.ts': leaf,
      }),
    ).toEqual([['app/state', 'app/storage']]);
  });

  it('finds a circle through a third folder, and through types too', async () => {
    expect(
      await circlesOf({
        'workers/domains/tau2/a.ts': uses('../toolscale/b.ts'),
        'workers/domains/toolscale/b.ts': leaf,
        'workers/domains/toolscale/c.ts': uses('../../eval/d.ts'),
        'workers/eval/d.ts': "import type { X } from '../domains/tau2/e.ts';\nexport const x = 1;\nexport type Y = X;\n",
        'workers/domains/tau2/e.ts': 'export interface X { x: number }\n',
      }),
    ).toEqual([['workers/domains/tau2', 'workers/domains/toolscale', 'workers/eval']]);
  });

  it('lets a subfolder use its parent’s modules, and one direction between two folders', async () => {
    expect(
      await circlesOf({
        'workers/domains/tau2/toolscale/bank.ts': uses('../model.ts'),
        'workers/domains/tau2/model.ts': leaf,
        'workers/domains/tau2/registry.ts': uses('./toolscale/bank.ts'),
        'workers/eval/runner.ts': leaf,
        'workers/domains/tau2/grade.ts': uses('../../eval/runner.ts'),
      }),
    ).toEqual([]);
  });
});
