import { beforeAll, describe, expect, it } from 'vitest';
import type { QuickJSWASMModule } from 'quickjs-emscripten-core';
import { loadQuickJS } from './quickjsModule.ts';
import { runInQuickJS } from './quickjsSandbox.ts';
import { MAX_ERROR_CHARS } from '../sandbox/cutText.ts';
import { DEFAULT_MAX_STACK_BYTES, type SandboxLimits } from './types.ts';

const limits: SandboxLimits = {
  timeoutMs: 2_000,
  memoryBytes: 32 * 1024 * 1024,
  maxStackBytes: DEFAULT_MAX_STACK_BYTES,
  maxOutputChars: 10_000,
  maxResultChars: 10_000,
};

// One module for most tests, as a long-lived host would hold it; the limit tests get their own.
let shared: QuickJSWASMModule;
beforeAll(async () => {
  shared = await loadQuickJS({ memoryBytes: limits.memoryBytes });
});

function run(code: string, options: { limits?: Partial<SandboxLimits>; input?: unknown; module?: QuickJSWASMModule } = {}) {
  return runInQuickJS(options.module ?? shared, code, {
    limits: { ...limits, ...options.limits },
    ...(options.input === undefined ? {} : { inputJson: JSON.stringify(options.input) }),
  });
}

describe('results', () => {
  it('returns the value of the last expression', () => {
    const result = run('const xs = [1, 2, 3];\nxs.map((x) => x * 2)');
    expect(result).toMatchObject({ value: [2, 4, 6], error: null, timedOut: false, truncated: false, crashed: false });
  });

  it('accepts an explicit return and top-level await', () => {
    expect(run('const n = await Promise.resolve(20);\nreturn { answer: n + 22 };').value).toEqual({ answer: 42 });
  });

  it('gives the call input to the code as args, and no args without input', () => {
    expect(run('return args.a + args.list.length', { input: { a: 40, list: [1, 2] } }).value).toBe(42);
    expect(run('typeof args').value).toBe('undefined');
  });

  it('reports undefined as no value, without an error', () => {
    expect(run('let x = 1;')).toMatchObject({ value: undefined, error: null });
  });

  it('captures console output with warn and error marked', () => {
    const result = run('console.log("a", 1, { b: [2] }, 3n); console.warn("careful"); console.error(new TypeError("bad")); 7');
    expect(result.logs).toBe('a 1 {"b":[2]} 3n\n[warn] careful\n[error] TypeError: bad\n');
    expect(result.value).toBe(7);
  });

  it('keeps runs apart: globals set by one run are gone in the next', () => {
    expect(run('globalThis.leftover = 1; Object.prototype.polluted = true; 0').error).toBeNull();
    expect(run('[typeof leftover, ({}).polluted === undefined]').value).toEqual(['undefined', true]);
  });
});

describe('errors become observations', () => {
  it('reports a thrown error with its name, message and line', () => {
    const result = run('const a = 1;\nfunction f() { throw new RangeError("out of range: " + a); }\nf();');
    expect(result.value).toBeUndefined();
    expect(result.error).toMatch(/^RangeError: out of range: 1\n\s+at f \(code\.js:2:/);
  });

  it('reports a thrown non-error value', () => {
    expect(run('throw { code: 7 }').error).toBe('Uncaught {"code":7}');
  });

  it('reports a rejected promise', () => {
    expect(run('await Promise.reject(new Error("nope"))').error).toMatch(/^Error: nope/);
  });

  it('reports a syntax error with its position', () => {
    expect(run('let x = ;').error).toMatch(/^SyntaxError: .*\n\s+at code\.js:1:/);
  });

  it('explains a promise that can never settle', () => {
    expect(run('return new Promise(() => {})').error).toMatch(/never settled.*no timers/);
  });

  it.each([
    ['a function', '(function named() {})', /result is a function \(named\)/],
    ['a cyclic object', 'const o = { name: "o" }; o.self = o; o', /circular reference/],
    ['a BigInt', '2n ** 70n', /a BigInt \(1180591620717411303424n\)/],
    ['a nested BigInt', '({ big: 1n })', /containing a BigInt/],
    ['a symbol', 'Symbol("s")', /result is a symbol/],
    ['Infinity', '1 / 0', /the number Infinity/],
  ])('explains a non-JSON result: %s', (_label, code, message) => {
    const result = run(code);
    expect(result.value).toBeUndefined();
    expect(result.error).toMatch(message);
    expect(result.error).toMatch(/only JSON data/);
  });

  it('refuses a result larger than the result cap', () => {
    const result = run('"x".repeat(20000)');
    expect(result.value).toBeUndefined();
    expect(result.error).toMatch(/20002 characters of JSON, more than the 10000-character limit/);
  });
});

describe('limits', () => {
  it('stops an endless loop at the deadline', () => {
    const result = run('let i = 0; while (true) { i++; }', { limits: { timeoutMs: 300 } });
    expect(result.timedOut).toBe(true);
    expect(result.error).toBe('Stopped: the code ran longer than 0.3 s.');
    expect(result.durationMs).toBeGreaterThanOrEqual(300);
    expect(result.durationMs).toBeLessThan(1_500);
  });

  it('keeps what was printed before the deadline', () => {
    const result = run('console.log("started"); for (;;) {}', { limits: { timeoutMs: 200 } });
    expect(result).toMatchObject({ timedOut: true, logs: 'started\n' });
  });

  it('stops an endless chain of promise jobs at the deadline', () => {
    const result = run('async function spin() { await null; return spin(); } spin(); await new Promise(() => {});', {
      limits: { timeoutMs: 200 },
    });
    expect(result.timedOut).toBe(true);
  });

  it('stops a catastrophic regular expression at the deadline', () => {
    const result = run('/(a+)+$/.test("a".repeat(40) + "b")', { limits: { timeoutMs: 200 } });
    expect(result.timedOut).toBe(true);
  });

  it('stops a memory bomb of many small allocations at the memory cap', async () => {
    const module = await loadQuickJS({ memoryBytes: 16 * 1024 * 1024 });
    const result = run('const keep = []; while (true) keep.push(new Array(1000).fill(keep.length));', {
      module,
      limits: { memoryBytes: 16 * 1024 * 1024, timeoutMs: 10_000 },
    });
    expect(result.timedOut).toBe(false);
    expect(result.crashed).toBe(false);
    expect(result.error).toMatch(/^Stopped: the code ran out of memory \(the limit is 16 MiB\)/);
    expect(module.getWasmMemory().buffer.byteLength).toBeLessThanOrEqual(32 * 1024 * 1024);
    // The instance recovers: its runtime freed everything.
    expect(run('1 + 1', { module }).value).toBe(2);
  });

  it('refuses a single allocation past the memory limit', () => {
    expect(run('"x".repeat(100 * 1024 * 1024).length').error).toMatch(/out of memory/);
  });

  it('contains deep recursion', () => {
    const result = run('function down(n) { return down(n + 1) + 1; }\ndown(0)');
    expect(result.crashed).toBe(false);
    expect(result.error).toMatch(/^Stopped: the call stack overflowed .*128 KiB/);
    // The repeated frame is told once, not a thousand times.
    expect(result.error).toMatch(/\n\s+at down \(code\.js:1:\d+\)\n\s+\(the frame above \d+ more times\)\n\s+at <eval> \(code\.js:2:/);
    // Ordinary recursion still fits.
    expect(run('function depth(n) { return n === 0 ? 0 : 1 + depth(n - 1); }\ndepth(500)').value).toBe(500);
  });

  it('contains deeply nested data that recurses in native code', async () => {
    const module = await loadQuickJS({ memoryBytes: limits.memoryBytes });
    const result = run('JSON.parse("[".repeat(100000))', { module });
    // QuickJS's parser stops itself, or the host's stack runs out first: either way, in words.
    expect(result.error).toMatch(/^(SyntaxError: stack overflow|Stopped: the code nested too deeply)/);
  });

  it('reports a host stack overflow inside QuickJS as nesting too deep, not as a crash dump', async () => {
    const module = await loadQuickJS({ memoryBytes: limits.memoryBytes });
    // A QuickJS stack check above what the host's stack can hold: the host overflows first.
    const result = run('function down(n) { return down(n + 1) + 1; }\ndown(0)', {
      module,
      limits: { maxStackBytes: 1024 * 1024 },
    });
    expect(result).toMatchObject({ crashed: true, timedOut: false, value: undefined });
    expect(result.error).toBe(
      "Stopped: the code nested too deeply (deep recursion or deeply nested data) and exhausted the sandbox's stack.",
    );
  });

  it('truncates a megabyte of console output at the cap and says how much was cut', () => {
    const result = run('const line = "x".repeat(1023); for (let i = 0; i < 1024; i++) console.log(line); "done"');
    expect(result.truncated).toBe(true);
    const note = `… [${(1024 * 1024 - 10_000).toLocaleString('en-US')} more characters cut]\n`;
    expect(result.logs).toBe(`${'x'.repeat(1023)}\n`.repeat(1024).slice(0, 10_000) + '\n' + note);
    expect(result.value).toBe('done');
  });

  it('cuts an 8 MB error to the error cap and says how much was cut', async () => {
    const memoryBytes = 128 * 1024 * 1024;
    const big = { limits: { memoryBytes }, module: await loadQuickJS({ memoryBytes }) };
    const thrown = run('throw new Error("x".repeat(8_000_000))', big);
    expect(thrown.error?.length).toBeLessThan(MAX_ERROR_CHARS + 100);
    expect(thrown.error).toMatch(/^Error: xxx[\s\S]*\n… \[7,99\d,\d{3} more characters cut\]\nx+(\n.*code\.js.*)?$/);
    const value = run('throw "y".repeat(8_000_000)', { ...big, module: await loadQuickJS({ memoryBytes }) });
    expect(value.error?.length).toBeLessThan(MAX_ERROR_CHARS + 100);
    expect(value.error).toMatch(/^Uncaught y+\n… \[7,99\d,\d{3} more characters cut\]\ny+$/);
  });
});

describe('nothing of the host is reachable', () => {
  it.each([
    'fetch',
    'XMLHttpRequest',
    'WebSocket',
    'importScripts',
    'localStorage',
    'indexedDB',
    'postMessage',
    'self',
    'window',
    'document',
    'navigator',
    'setTimeout',
    'setInterval',
    'queueMicrotask',
    'require',
    'process',
    'std',
    'os',
    'Worker',
    'WebAssembly',
  ])('%s is not defined', (name) => {
    expect(run(`[typeof ${name}, typeof globalThis.${name}]`).value).toEqual(['undefined', 'undefined']);
  });

  it('offers only the ECMAScript built-ins plus console', () => {
    const names = run('Object.getOwnPropertyNames(globalThis)').value as string[];
    const allowed = new Set([
      ...['Object', 'Function', 'Array', 'Number', 'Boolean', 'String', 'Symbol', 'BigInt', 'Math', 'JSON', 'Reflect'],
      ...['parseInt', 'parseFloat', 'isNaN', 'isFinite', 'NaN', 'Infinity', 'undefined', 'globalThis', 'eval'],
      ...['decodeURI', 'decodeURIComponent', 'encodeURI', 'encodeURIComponent', 'escape', 'unescape'],
      ...['Date', 'RegExp', 'Proxy', 'Map', 'Set', 'WeakMap', 'WeakSet', 'WeakRef', 'FinalizationRegistry', 'Promise'],
      ...['ArrayBuffer', 'SharedArrayBuffer', 'DataView', 'Atomics', 'Iterator', 'console'],
    ]);
    const unexpected = names.filter(
      (name) => !allowed.has(name) && !/Error$/.test(name) && !/Array$/.test(name) && name !== 'AggregateError',
    );
    expect(unexpected).toEqual([]);
  });
});
