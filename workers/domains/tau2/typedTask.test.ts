// A typed task's run in a τ² or ToolScale domain (the Task tab): the policy and the agent's tools
// over a fresh environment; each call answers as τ²'s tool does and names the rows it changed.

import { describe, expect, it } from 'vitest';
import { readTau2Domain } from '../../../cli/nodeTau2.ts';
import type { ToolOutput, ToolRunContext } from '../../engine/types.ts';
import type { DomainToolDetail } from '../environment.ts';
import { typedTaskTools } from './typedTask.ts';

const retail = readTau2Domain('retail');
const telecom = readTau2Domain('telecom');
const railway = readTau2Domain('railway');

let ids = 0;
async function call(tools: ReturnType<typeof typedTaskTools>['tools'], name: string, raw: string): Promise<ToolOutput & { detail: DomainToolDetail }> {
  const tool = tools.find((t) => t.name === name)!;
  const context: ToolRunContext = { signal: new AbortController().signal, call: { id: `c${++ids}`, raw, origin: 'server' } };
  return (await tool.run(JSON.parse(raw) as Record<string, unknown>, context)) as ToolOutput & { detail: DomainToolDetail };
}

describe('typedTaskTools', () => {
  it("offers the domain's policy and τ²'s agent tools", () => {
    const run = typedTaskTools(retail, 'tau2-retail');
    expect(run.system).toBe(retail.policy);
    expect(run.tools.map((t) => t.name)).toEqual(retail.agentTools.map((t) => t.name));
    expect(run.tools.every((t) => t.checksOwnArguments)).toBe(true);
  });

  it('reports the row a write changed, field by field, and none for a read', async () => {
    const { tools } = typedTaskTools(retail, 'tau2-retail');
    const read = await call(tools, 'get_order_details', '{"order_id": "#W5918442"}');
    expect(read.isError).toBe(false);
    expect(read.detail).toMatchObject({ kind: 'domain', domain: 'tau2-retail', tool: 'get_order_details', changes: [] });
    expect(read.detail.result).toMatchObject({ order_id: '#W5918442', status: 'pending' });

    const write = await call(tools, 'cancel_pending_order', '{"order_id": "#W5918442", "reason": "no longer needed"}');
    expect(write.isError).toBe(false);
    expect(write.detail.changes).toHaveLength(1);
    const [change] = write.detail.changes;
    expect(change).toMatchObject({ table: 'orders', id: '#W5918442', op: 'update' });
    expect(change!.fields).toContain('status');
    expect(change!.before?.status).toBe('pending');
    expect(change!.after?.status).toBe('cancelled');
    // The content is τ²'s text for the call.
    expect(JSON.parse(write.content)).toMatchObject({ status: 'cancelled' });
  });

  it("gives each run its own database: one run's write is not in the next", async () => {
    const first = typedTaskTools(retail, 'tau2-retail');
    await call(first.tools, 'cancel_pending_order', '{"order_id": "#W2974929", "reason": "no longer needed"}');
    const second = typedTaskTools(retail, 'tau2-retail');
    const read = await call(second.tools, 'get_order_details', '{"order_id": "#W2974929"}');
    expect(read.detail.result).toMatchObject({ status: 'pending' });
  });

  it("says a refused call's error as τ² words it, with no rows changed", async () => {
    const { tools } = typedTaskTools(retail, 'tau2-retail');
    const refused = await call(tools, 'cancel_pending_order', '{"order_id": "#W0000000", "reason": "no longer needed"}');
    expect(refused.isError).toBe(true);
    expect(refused.content).toBe('Error: Order not found');
    expect(refused.detail).toMatchObject({ changes: [], error: 'Error: Order not found' });
  });

  it('finds rows in list tables (telecom) and a row changed again after its first write', async () => {
    const { tools } = typedTaskTools(telecom, 'tau2-telecom');
    const once = await call(tools, 'refuel_data', '{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 2.0}');
    expect(once.isError).toBe(false);
    const line = once.detail.changes.find((c) => c.table === 'lines');
    expect(line).toMatchObject({ id: 'L1002', op: 'update', fields: ['data_refueling_gb'], before: { data_refueling_gb: 0 }, after: { data_refueling_gb: 2 } });
    // The charge lands on a bill: changed or added, it is reported too.
    expect(once.detail.changes.some((c) => c.table === 'bills')).toBe(true);
    const twice = await call(tools, 'refuel_data', '{"customer_id": "C1001", "line_id": "L1002", "gb_amount": 1.0}');
    expect(twice.detail.changes.find((c) => c.table === 'lines')).toMatchObject({ before: { data_refueling_gb: 2 }, after: { data_refueling_gb: 3 } });
  });

  it('reports a ToolScale write (railway) on its dict tables', async () => {
    const { tools } = typedTaskTools(railway, 'toolscale-railway');
    const cancel = await call(tools, 'cancel_reservation', '{"reservation_id": "cz201"}');
    expect(cancel.isError).toBe(false);
    const reservation = cancel.detail.changes.find((c) => c.id === 'cz201');
    expect(reservation).toMatchObject({ op: 'update' });
    expect(reservation!.fields.length).toBeGreaterThan(0);
  });
});
