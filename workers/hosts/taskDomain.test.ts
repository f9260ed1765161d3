// The domain a typed task's run plays in (the Task tab's picker), as the orchestrator worker gets
// it: a built-in domain's tools in the JavaScript sandbox or a τ²/ToolScale domain's, its policy,
// and a fresh database for every run; each domain loaded once.

import { afterAll, describe, expect, it } from 'vitest';
import { readTau2Domain } from '../../cli/nodeTau2.ts';
import { createNodeJavaScriptRunner } from '../../tools/javascript/nodeJavaScriptRunner.ts';
import { BUILT_IN_DOMAIN_FILES } from '../domains/browserDomains.ts';
import type { DomainToolDetail } from '../domains/environment.ts';
import type { Tau2DomainName } from '../domains/tau2/domains.ts';
import type { Tool } from '../engine/types.ts';
import { createTaskDomains } from './taskDomain.ts';

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
