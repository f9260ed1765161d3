import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ERROR_CHARS } from '../sandbox/cutText.ts';
import { createNodePythonRunner } from './nodePythonRunner.ts';
import type { PythonRunner } from '../../workers/engine/ports.ts';
import type { WarmablePythonRunner } from './pythonHost.ts';

const OUTPUT_CAP = 4096;
const RUN = { timeoutMs: 20_000 };

// Every run boots an interpreter of its own (seconds; far more on a loaded machine), so a test that
// runs several snippets waits for several boots.
describe('createNodePythonRunner', { timeout: 180_000 }, () => {
  let runner: WarmablePythonRunner;

  let firstRun: Awaited<ReturnType<PythonRunner['run']>>;

  beforeAll(async () => {
    // One spare, so that once warmUp has answered no other interpreter is booting (the CPU check below).
    runner = createNodePythonRunner({ maxOutputBytes: OUTPUT_CAP, spares: 1 });
    // Warm the worker so each test measures its own behaviour, not Pyodide's start-up.
    firstRun = await runner.run('pass', RUN);
  });

  afterAll(async () => {
    await runner.dispose();
  });

  // Each test starts with a booted spare, so a time limit below measures the code, not a boot.
  beforeEach(async () => {
    await runner.warmUp();
  }, 180_000);

  it('keeps the CLI’s environment (API keys), files and JavaScript out of reach', async () => {
    // Set before the worker starts, as a key exported before the CLI runs.
    process.env.ORCHESTRA_TEST_SECRET = 'not-a-real-key-node-python-placeholder';
    const fresh = createNodePythonRunner();
    try {
      const attempts: Array<[string, RegExp]> = [
        ['import js\nprint(js.process.env.ORCHESTRA_TEST_SECRET)', /No module named 'js': JavaScript is not reachable/],
        ['import pyodide_js\npyodide_js.FS.mount(pyodide_js.FS.filesystems.NODEFS, {"root": "/"}, "/mnt")', /No module named 'pyodide_js'/],
        ['from pyodide.code import run_js\nrun_js("process.env")', /PermissionError: JavaScript is not reachable/],
        [
          'from pyodide.ffi import to_js\nprint(to_js([]).constructor.constructor("return process.env.ORCHESTRA_TEST_SECRET")())',
          /TypeError: 'pyodide.ffi.JsProxy' object is not callable/,
        ],
      ];
      for (const [code, error] of attempts) {
        const result = await fresh.run(code, RUN);
        expect(result.stdout, code).not.toContain('not-a-real-key');
        expect(result.error, code).toMatch(error);
      }
      // Python's own view of the environment and the file system is Pyodide's, not the machine's.
      const view = await fresh.run('import os\nprint("etc" in os.listdir("/"), "ORCHESTRA_TEST_SECRET" in os.environ)', RUN);
      expect(view).toMatchObject({ stdout: 'False False\n', error: null });
      // And what it still may do works.
      expect(await fresh.run('from pyodide.ffi import to_js\nprint(to_js([1, 2]).length)', RUN)).toMatchObject({ stdout: '2\n' });
    } finally {
      delete process.env.ORCHESTRA_TEST_SECRET;
      await fresh.dispose();
    }
  }, 400_000);

  it('reports the wait for the interpreter to start apart from the run itself, and none once it is warm', async () => {
    // Pyodide takes well over 100 ms to start anywhere; the code itself ran in far less.
    expect(firstRun.startupMs).toBeGreaterThan(100);
    expect(firstRun.durationMs).toBeLessThan(firstRun.startupMs ?? 0);
    const warm = await runner.run('pass', RUN);
    expect(warm.startupMs).toBeLessThan(50);
  });

  it('captures printed output exactly', async () => {
    const result = await runner.run('print(1+1)', RUN);
    expect(result).toMatchObject({ stdout: '2\n', stderr: '', error: null, timedOut: false, aborted: false });
    expect(result.truncated).toBe(false);
    expect(result.durationMs).toBeGreaterThanOrEqual(0);

    const unterminated = await runner.run("print('a', end='')\nprint('b\\nc', end='')", RUN);
    expect(unterminated.stdout).toBe('ab\nc');
  });

  it('reports stderr and the last lines of a traceback', async () => {
    const code = [
      'import sys',
      "print('before')",
      "print('careful', file=sys.stderr)",
      'def fail():',
      "    raise ValueError('boom')",
      'fail()',
    ].join('\n');
    const result = await runner.run(code, RUN);
    expect(result.stdout).toBe('before\n');
    expect(result.stderr).toBe('careful\n');
    expect(result.error).toMatch(/^Traceback \(most recent call last\):\n {2}File "<exec>", line 6/);
    expect(result.error).toMatch(/ValueError: boom$/);
    expect(result.error).not.toContain('_pyodide');
  });

  it('treats sys.exit(0) as success and other exit codes as errors', async () => {
    const clean = await runner.run("import sys\nprint('done')\nsys.exit(0)\nprint('never')", RUN);
    expect(clean).toMatchObject({ stdout: 'done\n', error: null });
    const failed = await runner.run('import sys\nsys.exit(2)', RUN);
    expect(failed.error).toMatch(/SystemExit: 2$/);
  });

  it('reports a syntax error without running anything', async () => {
    const result = await runner.run("print('x')\nx = (", RUN);
    expect(result.stdout).toBe('');
    expect(result.error).toMatch(/SyntaxError/);
  });

  it('gives every run fresh globals running as __main__', async () => {
    await runner.run('secret = 41', RUN);
    const result = await runner.run('print(secret)', RUN);
    expect(result.error).toMatch(/NameError: name 'secret' is not defined$/);
    const main = await runner.run("if __name__ == '__main__':\n    print('main')", RUN);
    expect(main.stdout).toBe('main\n');
  });

  it('restores sys.stdout when a run redirects it', async () => {
    await runner.run('import sys, io\nsys.stdout = io.StringIO()', RUN);
    const result = await runner.run("print('visible')", RUN);
    expect(result.stdout).toBe('visible\n');
  });

  it('fails input() instead of waiting for a terminal', async () => {
    const result = await runner.run('input()', RUN);
    expect(result.error).toMatch(/Error/);
    expect(result.timedOut).toBe(false);
  });

  it('truncates output past the cap and says how much was cut', async () => {
    const result = await runner.run("print('x' * 10000)", RUN);
    expect(result.truncated).toBe(true);
    // 10,000 x and a newline, less the cap.
    expect(result.stdout).toBe(`${'x'.repeat(OUTPUT_CAP)}\n… [${(10_001 - OUTPUT_CAP).toLocaleString('en-US')} more bytes cut]\n`);

    const stderr = await runner.run("import sys\nfor _ in range(1000):\n    print('y' * 99, file=sys.stderr)", RUN);
    expect(stderr.truncated).toBe(true);
    expect(stderr.stderr.startsWith('y'.repeat(99))).toBe(true);
    expect(stderr.stderr.endsWith(`… [${(100_000 - OUTPUT_CAP).toLocaleString('en-US')} more bytes cut]\n`)).toBe(true);
  });

  it('cuts an 8 MB exception to the error cap and says how much was cut', async () => {
    const result = await runner.run('raise ValueError("x" * 8_000_000)', RUN);
    expect(result.error?.length).toBeLessThan(MAX_ERROR_CHARS + 100);
    expect(result.error).toMatch(/^Traceback \(most recent call last\):\n {2}File "<exec>", line 1[\s\S]*ValueError: xxx/);
    expect(result.error).toMatch(/\n… \[7,99\d,\d{3} more characters cut\]\nx+$/);
  });

  it('stops runaway code at the time limit and runs the next snippet in a fresh worker', async () => {
    const startedAt = performance.now();
    const result = await runner.run('while True: pass', { timeoutMs: 1500 });
    const elapsed = performance.now() - startedAt;
    expect(result.timedOut).toBe(true);
    expect(result.aborted).toBe(false);
    expect(elapsed).toBeGreaterThanOrEqual(1450);
    expect(elapsed).toBeLessThan(3000);

    // A loop still spinning in a worker thread would burn this process's CPU (once the spare that
    // boots after the run has loaded: its boot burns CPU too).
    await runner.warmUp();
    const cpuBefore = process.cpuUsage();
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const cpu = process.cpuUsage(cpuBefore);
    expect((cpu.user + cpu.system) / 1000).toBeLessThan(500);

    const next = await runner.run("print('alive')", RUN);
    expect(next).toMatchObject({ stdout: 'alive\n', error: null, timedOut: false });
  });

  it('stops a run when its signal aborts, and the next run works', async () => {
    const controller = new AbortController();
    const startedAt = performance.now();
    setTimeout(() => controller.abort(), 500);
    const result = await runner.run('while True: pass', { timeoutMs: 30_000, signal: controller.signal });
    expect(result).toMatchObject({ aborted: true, timedOut: false });
    expect(performance.now() - startedAt).toBeLessThan(5000);

    const next = await runner.run('print(6 * 7)', RUN);
    expect(next.stdout).toBe('42\n');
  });

  it('reports an interpreter that the code shut down, and recovers', async () => {
    const result = await runner.run('import os\nos._exit(3)', RUN);
    expect(result.error).toMatch(/^Python crashed: .*exit\(3\)/);
    expect(result.timedOut).toBe(false);
    const next = await runner.run("print('recovered')", RUN);
    expect(next.stdout).toBe('recovered\n');
  });

  it('does not run code whose signal aborted before it started', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await runner.run("print('ran')", { timeoutMs: 5000, signal: controller.signal });
    expect(result).toMatchObject({ aborted: true, stdout: '' });
  });

  it('queues runs one at a time and lets a queued run be aborted while it waits', async () => {
    const busy = 'total = 0\nfor i in range(3_000_000):\n    total += i\nprint(total)';
    const controller = new AbortController();
    const first = runner.run(busy, RUN);
    const queued = runner.run("print('queued')", { ...RUN, signal: controller.signal });
    const third = runner.run("print('third')", RUN);
    controller.abort();

    const abortedResult = await queued;
    expect(abortedResult.aborted).toBe(true);
    const [firstResult, thirdResult] = await Promise.all([first, third]);
    expect(firstResult.stdout).toBe(`${(3_000_000 * 2_999_999) / 2}\n`);
    expect(thirdResult.stdout).toBe('third\n');
  });

  it('rejects a non-positive time limit', async () => {
    await expect(runner.run('pass', { timeoutMs: 0 })).rejects.toThrow(RangeError);
  });
});
