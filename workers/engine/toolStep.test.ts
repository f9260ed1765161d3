import { describe, expect, it } from 'vitest';
import type { RunEvent } from './events.ts';
import { REFERENCE_PRICING } from './pricing.ts';
import { RunStop } from './protocol.ts';
import { RunContext } from './runContext.ts';
import { withToolCall } from './toolStep.ts';
import { MAX_TOOL_RESULT_CHARS } from './truncate.ts';

function turn() {
  const events: RunEvent[] = [];
  const run = new RunContext({ runId: 'r', pricing: REFERENCE_PRICING, maxCostUsd: null, maxWallMs: null, onEvent: (e) => events.push(e) });
  const results = () => events.filter((e) => e.type === 'tool_result');
  return { run, context: run.turn(1), events, results };
}

const call = { callId: 'c1', name: 'lookup', arguments: { id: 1 }, offered: ['lookup'] };

describe('withToolCall: every tool_call gets exactly one tool_result', () => {
  it('reports what the body reports, and returns the body’s value', async () => {
    const { context, events } = turn();
    const value = await withToolCall(context, call, async (report) => {
      report({ ok: true, content: 'found' });
      return 42;
    });
    expect(value).toBe(42);
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result']);
    expect(events[1]).toMatchObject({ callId: 'c1', name: 'lookup', ok: true, content: 'found', error: undefined });
  });

  it('a failed outcome without an error reports its content as the error', async () => {
    const { context, results } = turn();
    await withToolCall(context, call, async (report) => report({ ok: false, content: 'Error: no such row' }));
    expect(results()[0]).toMatchObject({ ok: false, error: 'Error: no such row' });
  });

  it('a stop under the call is reported as a stop, then goes on to the loop', async () => {
    const { context, results } = turn();
    await expect(withToolCall(context, call, () => Promise.reject(new RunStop('max_time')))).rejects.toBeInstanceOf(RunStop);
    expect(results()).toHaveLength(1);
    expect(results()[0]).toMatchObject({ ok: false, content: 'Stopped: the time limit was reached.' });
  });

  it('an error the body did not report is reported as the call’s failure and rethrown', async () => {
    const { context, results } = turn();
    await expect(withToolCall(context, call, () => Promise.reject(new Error('disk on fire')))).rejects.toThrow('disk on fire');
    expect(results()).toEqual([expect.objectContaining({ ok: false, content: 'Error: lookup failed: disk on fire' })]);
  });

  it('an error after the body reported is rethrown without a second result', async () => {
    const { context, results } = turn();
    const body = async (report: (o: { ok: boolean; content: string }) => unknown) => {
      report({ ok: false, content: 'bad key' });
      throw new Error('needs the user');
    };
    await expect(withToolCall(context, call, body)).rejects.toThrow('needs the user');
    expect(results()).toHaveLength(1);
  });

  it('a body that returns without reporting leaves no call open', async () => {
    const { context, results } = turn();
    await withToolCall(context, call, async () => undefined);
    expect(results()).toEqual([expect.objectContaining({ ok: false, content: 'Error: lookup reported no result.' })]);
  });

  it('a second report is a bug and says so', async () => {
    const { context, results } = turn();
    const twice = withToolCall(context, call, async (report) => {
      report({ ok: true, content: 'a' });
      report({ ok: true, content: 'b' });
    });
    await expect(twice).rejects.toThrow('reported twice');
    expect(results()).toHaveLength(1);
  });

  it('what it reports and returns is cut to size: what the model will read', async () => {
    const { context, results } = turn();
    const reported = await withToolCall(context, call, async (report) => report({ ok: true, content: 'x'.repeat(MAX_TOOL_RESULT_CHARS + 5_000) }));
    expect(reported.content.length).toBeLessThan(MAX_TOOL_RESULT_CHARS + 200);
    expect(results()[0]).toMatchObject({ content: reported.content });
  });

  it('records an expert’s call with its alias and model, and a child call with its parent', async () => {
    const { context, events } = turn();
    await withToolCall(context, { ...call, alias: 'expert-1', model: 'gpt-5' }, async (report) => report({ ok: true, content: '' }));
    await withToolCall(context, { ...call, callId: 'c2', parentCallId: 'c1' }, async (report) => report({ ok: true, content: '' }));
    expect(events[0]).toMatchObject({ type: 'tool_call', alias: 'expert-1', model: 'gpt-5' });
    expect(events[2]).not.toHaveProperty('alias');
    expect(events[2]).toMatchObject({ type: 'tool_call', parentCallId: 'c1' });
    expect(events[3]).toMatchObject({ type: 'tool_result', parentCallId: 'c1' });
  });
});
