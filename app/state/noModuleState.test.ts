// No module-level mutable state in the page is enforced by `npm run lint` (eslint.config.js,
// orchestra/no-module-state): these snippets, placed where the rule applies, check that it bites,
// and that what is allowed (constants, state made inside a factory, tests) stays allowed.

import { ESLint } from 'eslint';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function moduleState(code: string, filePath = 'app/state/x.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'orchestra/no-module-state').map((m) => m.message);
}

describe('no module-level mutable state in app/ (npm run lint)', () => {
  it('refuses a module-level let or var, exported or not', async () => {
    expect(await moduleState('let client = null;\nexport function f() { client = 1; return client; }\n')).toEqual([expect.stringContaining('module-level `let`')]);
    expect(await moduleState('export let count = 0;\n', 'app/components/X/index.tsx')).toHaveLength(1);
    expect(await moduleState('var seen = false;\nexport const f = () => seen;\n')).toEqual([expect.stringContaining('module-level `var`')]);
  });

  it('refuses a module-level Map, Set, WeakMap or WeakSet', async () => {
    for (const name of ['Map', 'Set', 'WeakMap', 'WeakSet']) {
      expect(await moduleState(`const cache = new ${name}<object, string>();\nexport const f = () => cache;\n`), name).toEqual([expect.stringContaining(`new ${name}`)]);
    }
    expect(await moduleState('export const listeners = new Set<() => void>() as Set<() => void>;\n')).toHaveLength(1);
  });

  it('refuses a zustand store made at import time, under any name', async () => {
    const store = "import { create } from 'zustand';\nexport const useThing = create<{ n: number }>()(() => ({ n: 0 }));\n";
    expect(await moduleState(store)).toEqual([expect.stringContaining('one global store')]);
    const vanilla = "import { createStore as make } from 'zustand/vanilla';\nexport const thing = make(() => ({ n: 0 }));\n";
    expect(await moduleState(vanilla)).toHaveLength(1);
  });

  it('allows constants, and state made inside a factory or a component', async () => {
    const allowed = [
      "import { createStore } from 'zustand/vanilla';",
      'const TICK_MS = 50;',
      'export const SPEEDS = [1, 4, 16] as const;',
      'const initialState = { n: 0 };',
      'export function createThing() {',
      '  let timer = 0;',
      '  const seen = new Set<string>();',
      '  const store = createStore(() => initialState);',
      '  return { store, seen, tick: () => (timer += TICK_MS) };',
      '}',
      '',
    ].join('\n');
    expect(await moduleState(allowed)).toEqual([]);
  });

  it('leaves tests, and code outside app/, to themselves', async () => {
    expect(await moduleState('let calls = 0;\nexport const f = () => calls++;\n', 'app/state/x.test.ts')).toEqual([]);
    expect(await moduleState('let calls = 0;\nexport const f = () => calls++;\n', 'cli/x.ts')).toEqual([]);
  });
});
