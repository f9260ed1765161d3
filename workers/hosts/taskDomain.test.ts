// The domain a typed task's run plays in (the Task tab's picker), as the orchestrator worker gets
// it: a built-in domain's tools in the JavaScript sandbox or a τ²/ToolScale domain's, its policy,
// and a fresh database for every run; each domain loaded once.

import { afterAll, describe, expect, it } from 'vitest';
import { readTau2Domain } from '../../cli/nodeTau2.ts';
import { createNodeJavaScriptRunner } from '../../tools/javascript/nodeJavaScriptRunner.ts';
import { BUILT_IN_DOMAIN_FILES } from '../domains/browserDomains.ts';
import type { DomainToolDetail } from '../domains/environment.ts';
import type { Tau2DomainName } from '../domains/tau2/domains.ts';
import type { ForkFrom, RunEvent } from '../engine/events.ts';
import type { Tool } from '../engine/types.ts';
import { createTaskDomains, MAX_REPLAYED_CALLS, replayKeptCalls } from './taskDomain.ts';

const javascript = createNodeJavaScriptRunner();
afterAll(() => javascript.dispose?.());

function sources() {
  const loads: string[] = [];
  return {
    loads,
    domains: createTaskDomains({
      javascript,
      tau2: (name: Tau2DomainName) => {
        loads.push(name);
        return Promise.resolve(readTau2Domain(name));
      },
    }),
  };
}

const signal = new AbortController().signal;
const run = (tools: Tool[], name: string, args: Record<string, unknown>) =>
  tools.find((tool) => tool.name === name)!.run(args, { signal, call: { id: 'c1', raw: JSON.stringify(args), origin: 'server' } });

describe('createTaskDomains', () => {
  it('runs a built-in domain’s tools in the sandbox over a fresh database per run', async () => {
    const { domains } = sources();
    const first = await domains('retail');
    expect(first.system).toBe(BUILT_IN_DOMAIN_FILES.retail.policy.trim());
    const cancel = await run(first.tools, 'cancel_order', { order_id: 'O-5001', reason: 'ordered_by_mistake' });
    expect(cancel.isError).toBeFalsy();
    const detail = cancel.detail as DomainToolDetail;
    expect(detail).toMatchObject({ kind: 'domain', domain: 'retail', tool: 'cancel_order' });
    expect(detail.changes.map((c) => [c.table, c.id, c.op])).toContainEqual(['orders', 'O-5001', 'update']);
    // The next run starts from the seed again: the order can be cancelled once more.
    const second = await domains('retail');
    const again = await run(second.tools, 'cancel_order', { order_id: 'O-5001', reason: 'ordered_by_mistake' });
    expect(again.isError).toBeFalsy();
    expect((again.detail as DomainToolDetail).changes).toHaveLength(detail.changes.length);
  }, 60_000);

  it('plays a τ² or ToolScale domain by its suite name, loading its files once', async () => {
    const { domains, loads } = sources();
    const bank = await domains('toolscale-bank');
    const railway = readTau2Domain('railway');
    expect(bank.system).toBe(readTau2Domain('bank').policy);
    expect((await domains('toolscale-railway')).tools.map((t) => t.name)).toEqual(railway.agentTools.map((t) => t.name));
    await domains('toolscale-bank');
    const telecom = await domains('tau2-telecom');
    expect(telecom.tools.map((t) => t.name)).toContain('refuel_data');
    expect(loads).toEqual(['bank', 'railway', 'telecom']);
  });

  it('refuses a domain it does not know, by name', async () => {
    const { domains } = sources();
    await expect(domains('tau2-airline')).rejects.toThrow('There is no domain "tau2-airline"');
  });

  it('tries a failed load again on the next run', async () => {
    let calls = 0;
    const domains = createTaskDomains({
      javascript,
      tau2: (name) => (++calls === 1 ? Promise.reject(new Error('chunk lost')) : Promise.resolve(readTau2Domain(name))),
    });
    await expect(domains('toolscale-weather')).rejects.toThrow('chunk lost');
    expect((await domains('toolscale-weather')).tools.length).toBeGreaterThan(0);
  });
});

type StoredCall = [step: number, name: string, args: Record<string, unknown>, ok: boolean];

/** A fork after `throughStep` of a stored run whose log holds these domain calls (each with
 * whether it succeeded). */
function forkAfter(throughStep: number, calls: StoredCall[]): ForkFrom {
  const events = calls.flatMap(([step, name, args, ok], index): RunEvent[] => [
    { type: 'tool_call', runId: 'parent', t: index, step, callId: `c${index}`, name, arguments: args, offered: [] },
    { type: 'tool_result', runId: 'parent', t: index, step, callId: `c${index}`, name, ok, content: ok ? '{}' : 'Error: …', latencyMs: 1 },
  ]);
  return { parentRunId: 'parent', throughStep, events };
}

const orderStatus = async (tools: Tool[], orderId: string) =>
  (JSON.parse((await run(tools, 'get_order_details', { order_id: orderId })).content) as { status: string }).status;

describe('replayKeptCalls', () => {
  const cancel = (orderId: string) => ({ order_id: orderId, reason: 'no longer needed' });

  it('brings a fork’s fresh database to where the kept steps left it: their successful calls, in order, none after', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    const fork = forkAfter(2, [
      [1, 'cancel_pending_order', cancel('#W5918442'), true],
      // Failed in the stored run: not made again.
      [1, 'cancel_pending_order', cancel('#W2974929'), false],
      // Not a tool of the domain (an expert's turn): skipped.
      [2, 'call_expert', { expert: 'gpt-5' }, true],
      // After the fork's step: the fork's own to make or not.
      [3, 'cancel_pending_order', cancel('#W2631563'), true],
    ]);
    expect(await replayKeptCalls(retail, fork, signal)).toBe(1);
    expect(await orderStatus(retail.tools, '#W5918442')).toBe('cancelled');
    expect(await orderStatus(retail.tools, '#W2974929')).toBe('pending');
    expect(await orderStatus(retail.tools, '#W2631563')).toBe('pending');
    // Without the replay, the fork's database is the seed's.
    expect(await orderStatus((await domains('tau2-retail')).tools, '#W5918442')).toBe('pending');
  });

  it('does the same for a built-in domain’s sandboxed tools', async () => {
    const { domains } = sources();
    const retail = await domains('retail');
    const fork = forkAfter(1, [[1, 'cancel_order', { order_id: 'O-5001', reason: 'ordered_by_mistake' }, true]]);
    expect(await replayKeptCalls(retail, fork, signal)).toBe(1);
    // Cancelled already: the domain refuses a second cancellation.
    expect((await run(retail.tools, 'cancel_order', { order_id: 'O-5001', reason: 'ordered_by_mistake' })).isError).toBe(true);
  }, 60_000);

  it('says which step’s call cannot be made again, rather than go on from a database it does not know', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    // The stored run says the same order was cancelled twice: a fresh copy refuses the second.
    const twice = cancel('#W5918442');
    const fork = forkAfter(2, [
      [1, 'cancel_pending_order', twice, true],
      [2, 'cancel_pending_order', twice, true],
    ]);
    await expect(replayKeptCalls(retail, fork, signal)).rejects.toThrow(/^step 2's call cancel_pending_order succeeded in the stored run but fails on a fresh copy/);
  });

  // A forged log (an imported run file): kept steps that hold more calls than any run can make.
  const lookups = (count: number, first: StoredCall[] = []): ForkFrom =>
    forkAfter(1, [...first, ...Array.from({ length: count }, (): StoredCall => [1, 'get_order_details', { order_id: '#W2974929' }, true])]);

  it('refuses a stored log whose kept steps hold more calls than a run can make, making none of them', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    const fork = lookups(MAX_REPLAYED_CALLS, [[1, 'cancel_pending_order', cancel('#W5918442'), true]]);
    const started = performance.now();
    await expect(replayKeptCalls(retail, fork, signal)).rejects.toThrow(`its kept steps hold ${(MAX_REPLAYED_CALLS + 1).toLocaleString('en-US')} calls to the domain's tools, more than a run can make`);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await orderStatus(retail.tools, '#W5918442')).toBe('pending');
  });

  it('ends at a Stop sent while it replays, as a message arriving in the worker would', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    const stop = new AbortController();
    let made = 0;
    // The Stop arrives as a task of the event loop (a worker's message), sent during the 30th call.
    const counted = { ...retail, tools: retail.tools.map((tool) => ({ ...tool, run: (...args: Parameters<Tool['run']>) => {
      if (++made === 30) setTimeout(() => stop.abort(), 0);
      return tool.run(...args);
    } })) };
    await expect(replayKeptCalls(counted, lookups(2_000), stop.signal)).rejects.toThrow(/^it was stopped after \d+ of the kept steps' 2000 calls$/);
    expect(made).toBeLessThan(100);
  });

  // Issue 31, item 6: a forged log kept a `calculate` of 1,000 factors of 9**24000, replayed
  // silently for about four minutes before the fork started, deaf to Stop.
  it('makes a forged log’s costly calculate under the bounds any call has: it fails at once, and the fork is refused', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    const fork = forkAfter(1, [[1, 'calculate', { expression: Array(1000).fill('9**24000').join('*') }, true]]);
    await expect(replayKeptCalls(retail, fork, signal)).rejects.toThrow(
      /^step 1's call calculate succeeded in the stored run but fails on a fresh copy of the domain's database \(Error: an int in this expression would have more than 100,000 bits\)/,
    );
  });

  it('ends at the run’s time limit', async () => {
    const { domains } = sources();
    const retail = await domains('tau2-retail');
    const slow = { ...retail, tools: retail.tools.map((tool) => ({ ...tool, run: async (...args: Parameters<Tool['run']>) => {
      const until = performance.now() + 2;
      while (performance.now() < until);
      return tool.run(...args);
    } })) };
    await expect(replayKeptCalls(slow, lookups(2_000), signal, 50)).rejects.toThrow(/^replaying the kept steps' 2000 calls passed the run's time limit \(0\.05 s\) after \d+$/);
  });
});
