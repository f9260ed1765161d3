// The engine's boundary is enforced by `npm run lint` (eslint.config.js): these lint snippets
// placed where the rule applies and check that it bites — and that what is allowed stays allowed.

import { ESLint } from 'eslint';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENGINE_ENTRY_POINTS } from '../../eslint.config.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function restrictedImports(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the engine boundary (npm run lint)', () => {
  it('refuses an engine import from the backends, at runtime or for types', async () => {
    expect(await restrictedImports("import { toErrorInfo } from '../backends/errors.ts';\nvoid toErrorInfo;\n", 'workers/engine/x.ts')).toEqual([
      expect.stringContaining('The engine imports nothing from the backends'),
    ]);
    expect(await restrictedImports("import type { X } from '../../backends/http.ts';\nexport type Y = X;\n", 'workers/engine/protocols/x.ts')).toHaveLength(1);
  });

  it('refuses tools, the hosts and the composition root', async () => {
    expect(await restrictedImports("import type { PythonRunner } from '../../tools/python/types.ts';\nexport type P = PythonRunner;\n", 'workers/engine/x.ts')).toEqual([
      expect.stringContaining('the tools implement its ports'),
    ]);
    expect(await restrictedImports("import { prepareRun } from '../hosts/prepareRun.ts';\nvoid prepareRun;\n", 'workers/engine/x.ts')).toEqual([
      expect.stringContaining('does not know its hosts'),
    ]);
    expect(await restrictedImports("import { x } from '../../app/state/session.ts';\nvoid x;\n", 'workers/engine/x.ts')).toHaveLength(1);
  });

  it('refuses test doubles in production code anywhere, and allows them in tests', async () => {
    const double = "import { FakeWebLlmEngine } from '../../e2e/fixtures/doubles/fakeWebLlmEngine.ts';\nvoid FakeWebLlmEngine;\n";
    expect(await restrictedImports(double, 'workers/hosts/models/x.ts')).toEqual([expect.stringContaining('production code cannot import them')]);
    expect(await restrictedImports(double, 'workers/hosts/models/x.test.ts')).toEqual([]);
  });

  it('lets the engine import itself, and the backends import the engine', async () => {
    expect(await restrictedImports("import type { ChatModel } from '../types.ts';\nexport type M = ChatModel;\n", 'workers/engine/protocols/x.ts')).toEqual([]);
    expect(await restrictedImports("import { BackendError } from '../engine/errors.ts';\nvoid BackendError;\n", 'workers/backends/x.ts')).toEqual([]);
  });
});

describe("the app's way into the engine (npm run lint)", () => {
  it('refuses an app import of the engine past its entry points, at runtime or for types', async () => {
    expect(await restrictedImports("import { runOrchestration } from '../../workers/engine/run.ts';\nvoid runOrchestration;\n", 'app/state/x.ts')).toEqual([
      expect.stringContaining("The app imports only the engine's entry points"),
    ]);
    expect(await restrictedImports("import type { AliasDescription } from '../../../workers/engine/protocols/paper.ts';\nexport type A = AliasDescription;\n", 'app/components/Trace/x.tsx')).toHaveLength(1);
    // A name that only begins like an entry point is not one.
    expect(await restrictedImports("import { x } from '../../workers/engine/typesExtra.ts';\nvoid x;\n", 'app/state/x.ts')).toHaveLength(1);
  });

  it('lets the app import every entry point, and its tests drive the engine whole', async () => {
    for (const file of ENGINE_ENTRY_POINTS) {
      expect(existsSync(`${root}workers/engine/${file}`), file).toBe(true);
      expect(await restrictedImports(`import * as entry from '../../workers/engine/${file}';\nvoid entry;\n`, 'app/state/x.ts'), file).toEqual([]);
    }
    expect(await restrictedImports("import { runOrchestration } from '../../workers/engine/run.ts';\nvoid runOrchestration;\n", 'app/state/x.test.ts')).toEqual([]);
  });

  it('still refuses test doubles in the app', async () => {
    expect(await restrictedImports("import { call } from '../../e2e/fixtures/backendCalls.ts';\nvoid call;\n", 'app/state/x.ts')).toEqual([
      expect.stringContaining('production code cannot import them'),
    ]);
  });
});
