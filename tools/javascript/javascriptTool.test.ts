import { describe, expect, it } from 'vitest';
import { createJavaScriptTool, formatJsRunResult } from './javascriptTool.ts';
import { loadQuickJS } from './quickjsModule.ts';
import { runInQuickJS } from './quickjsSandbox.ts';
import { DEFAULT_MAX_OUTPUT_CHARS, DEFAULT_MAX_RESULT_CHARS, DEFAULT_MAX_STACK_BYTES, DEFAULT_MEMORY_BYTES } from './types.ts';
import { type JavaScriptRunner, type JsRunResult } from '../../workers/engine/ports.ts';

// The real sandbox core, run in-process (the browser runs the same core in a worker).
const inProcessRunner: JavaScriptRunner = {
  async run(code, { timeoutMs, memoryBytes = DEFAULT_MEMORY_BYTES, input }) {
    const module = await loadQuickJS({ memoryBytes });
    const { crashed: _crashed, ...result } = runInQuickJS(module, code, {
      limits: {
        timeoutMs,
        memoryBytes,
        maxStackBytes: DEFAULT_MAX_STACK_BYTES,
        maxOutputChars: DEFAULT_MAX_OUTPUT_CHARS,
        maxResultChars: DEFAULT_MAX_RESULT_CHARS,
      },
      ...(input === undefined ? {} : { inputJson: JSON.stringify(input) }),
    });
    return { ...result, aborted: false };
  },
  dispose() {},
};

const tool = createJavaScriptTool(inProcessRunner, { timeoutMs: 500, usdPerSecond: 0.001 });
const signal = new AbortController().signal;

describe('run_javascript', () => {
  it('describes itself with its limits and takes a code argument', () => {
    expect(tool.name).toBe('run_javascript');
    expect(tool.description).toContain('0.5 s and 64 MiB');
    expect(tool.parameters).toMatchObject({ required: ['code'], properties: { code: { type: 'string' } } });
  });

  it('shows console output and the result', async () => {
    const output = await tool.run({ code: 'console.log("sum of squares");\n[1, 2, 3].reduce((s, x) => s + x * x, 0)' }, { signal });
    expect(output.content).toBe('console output:\nsum of squares\nresult: 14');
    expect(output.isError).toBe(false);
    expect(output.costBasis).toBe('estimated');
    expect(output.costUsd).toBeGreaterThan(0);
    expect(output.detail).toMatchObject({ value: 14, logs: 'sum of squares\n' });
  });

  it('reports a thrown error as an error observation', async () => {
    const output = await tool.run({ code: 'null.x' }, { signal });
    expect(output.isError).toBe(true);
    expect(output.content).toMatch(/^error: TypeError: /);
  });

  it('reports a runaway loop as stopped', async () => {
    const output = await tool.run({ code: 'while (true) {}' }, { signal });
    expect(output).toMatchObject({ isError: true, content: 'error: Stopped: the code ran longer than 0.5 s.' });
  });

  it('asks for code when the argument is missing or not a string', async () => {
    for (const args of [{}, { code: 42 }, { code: '   ' }]) {
      const output = await tool.run(args, { signal });
      expect(output).toMatchObject({ isError: true, content: expect.stringMatching(/`code` argument/) });
    }
  });

  it('tells the model how to produce a value when there is nothing to show', async () => {
    expect((await tool.run({ code: 'let x = 1;' }, { signal })).content).toMatch(/^\(no output and no result/);
  });
});

describe('formatJsRunResult', () => {
  const base: JsRunResult = { value: undefined, logs: '', error: null, timedOut: false, aborted: false, durationMs: 1, truncated: false };

  it('passes on the line that says console output was cut', () => {
    expect(formatJsRunResult({ ...base, logs: 'xxxx\n… [12 more characters cut]\n', truncated: true, value: 1 })).toBe(
      'console output:\nxxxx\n… [12 more characters cut]\nresult: 1',
    );
  });

  it('says when the run was cancelled', () => {
    expect(formatJsRunResult({ ...base, aborted: true })).toBe('Stopped: the run was cancelled.');
  });
});
