// A code run must not see what an earlier one left behind (issue 23, item 7): the CLI's Python, as
// the browser's, gives every run an interpreter no other run has touched. One warm interpreter with
// fresh globals is not enough: modules, builtins and files outlive the globals.
import { afterAll, describe, expect, it } from 'vitest';
import { createNodePythonRunner } from './nodePythonRunner.ts';

const RUN = { timeoutMs: 20_000 };
const PLANT = [
  'import builtins, math, sys, os',
  'math.pi = 3',
  "builtins.planted = 'A was here'",
  "sys.modules['planted_module'] = math",
  "sys.setrecursionlimit(77)",
  "os.environ['PLANTED'] = '1'",
  "open('/tmp/planted.txt', 'w').write('A')",
  "print('planted')",
].join('\n');
const LOOK = [
  'import builtins, math, sys, os',
  'print(math.pi)',
  "print(hasattr(builtins, 'planted'))",
  "print('planted_module' in sys.modules)",
  'print(sys.getrecursionlimit() == 77)',
  "print('PLANTED' in os.environ)",
  "print(os.path.exists('/tmp/planted.txt'))",
].join('\n');

describe('the CLI’s Python: one run does not see another’s state', () => {
  const runner = createNodePythonRunner();
  afterAll(() => runner.dispose());

  it('gives run B none of the modules, builtins, settings or files run A changed', async () => {
    expect(await runner.run(PLANT, RUN)).toMatchObject({ stdout: 'planted\n', error: null });
    const seen = await runner.run(LOOK, RUN);
    expect(seen.error).toBeNull();
    expect(seen.stdout).toBe(`${Math.PI}\nFalse\nFalse\nFalse\nFalse\nFalse\n`);
  }, 300_000);
});
