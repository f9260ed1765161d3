import { afterAll, describe, expect, it } from 'vitest';
import { createCalculatorTool } from './calculatorTool.ts';
import { createNodeCalculatorRunner } from './nodeCalculatorRunner.ts';

// The calculator as the tool runs it: mathjs in its worker thread, with a deadline.

/** Allowed by every cap, and slow: each union compares 200 × 200 BigNumbers (about 0.3 s). */
const SLOW = Array.from({ length: 40 }, () => 'setUnion(1:200, 1:200)').join('; ');

const runner = createNodeCalculatorRunner();
const tool = createCalculatorTool(runner, { timeoutMs: 1_000 });
const signal = new AbortController().signal;

afterAll(() => runner.dispose());

describe('the calculator tool', () => {
  it('describes itself and takes an expression', () => {
    expect(tool.name).toBe('calculator');
    expect(tool.parameters).toMatchObject({ required: ['expression'], properties: { expression: { type: 'string' } } });
  });

  it('evaluates in its worker and returns the result', async () => {
    expect(await tool.run({ expression: '0.1 + 0.2' }, { signal })).toMatchObject({ content: '0.3', isError: false, costUsd: 0 });
    expect(await tool.run({ expression: '5 km to mile' }, { signal })).toMatchObject({
      content: '3.106855961186669848087170921816591107929690606855961186669848087 mile',
      detail: { type: 'Unit' },
    });
  }, 60_000);

  it('answers bad input with a clear error observation, quoting at most 200 characters of it', async () => {
    for (const args of [{}, { expression: 7 }, { expression: ' ' }]) {
      expect(await tool.run(args, { signal })).toMatchObject({ isError: true, content: expect.stringMatching(/`expression` argument/) });
    }
    expect(await tool.run({ expression: 'setPowerset(1:19)' }, { signal })).toMatchObject({
      isError: true,
      content: 'Could not evaluate "setPowerset(1:19)": setPowerset: that would make 524288 subsets; the limit is 4096',
    });
    const long = await tool.run({ expression: '1'.repeat(5_000) }, { signal });
    expect(long.content).toBe(`Could not evaluate "${'1'.repeat(200)}…": the expression is 5000 characters long; the limit is 2000`);
  }, 60_000);

  it('stops an expression at its deadline without blocking this thread, and the next one gets a fresh worker', async () => {
    let longestGapMs = 0;
    let last = performance.now();
    const heartbeat = setInterval(() => {
      const now = performance.now();
      longestGapMs = Math.max(longestGapMs, now - last);
      last = now;
    }, 20);
    try {
      const output = await tool.run({ expression: SLOW }, { signal });
      expect(output).toMatchObject({ isError: true, detail: { timedOut: true } });
      expect(output.content).toMatch(/^Could not evaluate "setUnion\(1:200, 1:200\);.*…": it ran longer than 1 s, so it was stopped; work it out in smaller steps$/);
    } finally {
      clearInterval(heartbeat);
    }
    // mathjs ran on the worker thread: this one kept ticking (generous for a loaded machine).
    expect(longestGapMs).toBeLessThan(500);
    expect(await tool.run({ expression: '6 * 7' }, { signal })).toMatchObject({ content: '42', isError: false });
  }, 60_000);

  it('is stopped by its signal at once, and works again after', async () => {
    const controller = new AbortController();
    const startedAt = performance.now();
    const running = runner.calculate(SLOW, { timeoutMs: 30_000, signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    const result = await running;
    expect(result).toMatchObject({ aborted: true, timedOut: false, calculation: null });
    expect(performance.now() - startedAt).toBeLessThan(5_000);
    expect(await tool.run({ expression: 'sqrt(16)' }, { signal })).toMatchObject({ content: '4' });
  }, 60_000);

  it('keeps the deadline of each call from its own start when calls queue', async () => {
    const results = await Promise.all([
      runner.calculate('1 + 1', { timeoutMs: 5_000 }),
      runner.calculate('2 + 2', { timeoutMs: 5_000 }),
      runner.calculate('3 + 3', { timeoutMs: 5_000 }),
    ]);
    expect(results.map((result) => result.calculation?.result)).toEqual(['2', '4', '6']);
    await expect(runner.calculate('1', { timeoutMs: 0 })).rejects.toThrow(RangeError);
  }, 60_000);
});
