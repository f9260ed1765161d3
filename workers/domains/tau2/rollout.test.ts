// A τ² rollout's agent calls (rollout.ts) as the Evaluate tab's trace shows them: each call's
// result carries the rows it changed, exactly as the same call does in a Task-tab run in that
// domain (typedTask.ts), and grading is as before.

import { describe, expect, it } from 'vitest';
import { readTau2Domain, readTau2Guidelines } from '../../../cli/nodeTau2.ts';
import { scriptedTurnContext } from '../../../e2e/fixtures/tau2/turnContext.ts';
import { REFERENCE_PRICING } from '../../engine/pricing.ts';
import type { Tool } from '../../engine/types.ts';
import type { DomainToolDetail } from '../environment.ts';
import type { LoadedTau2Domain } from './domains.ts';
import { pyJsonDumps, toPlainJson } from './pyJson.ts';
import { Tau2Rollout } from './rollout.ts';
import { communicateMessage } from './scripted.ts';
import type { Action } from './tasks.ts';
import { typedTaskTools } from './typedTask.ts';

const guidelines = readTau2Guidelines();
const signal = new AbortController().signal;

/** Runs `action` with `tools` as the engine does (the call's id and raw text in its context). */
async function run(tools: readonly Tool[], action: Action, id: string) {
  const args = toPlainJson(action.arguments) as Record<string, unknown>;
  const output = await tools.find((tool) => tool.name === action.name)!.run(args, { signal, call: { id, raw: pyJsonDumps(action.arguments), origin: 'server' } });
  return { ...output, detail: output.detail as DomainToolDetail };
}

/** Plays a task's conversation with the scripted user: the agent makes `actions`, one a turn, and
 * says what it must; each call's output as the agent's tool answered it. */
async function playRollout(domain: LoadedTau2Domain, taskId: string, actions?: Action[]) {
  const task = domain.tasks.find((t) => t.id === taskId)!;
  const rollout = new Tau2Rollout({ domain, task, user: { kind: 'scripted' }, guidelines, pricing: REFERENCE_PRICING });
  const context = scriptedTurnContext();
  await rollout.open(context);
  const played = actions ?? task.evaluationCriteria?.actions ?? [];
  const outputs = [];
  for (const [i, action] of played.entries()) {
    rollout.agentCalls('', [{ id: `call_${i}`, name: action.name, arguments: toPlainJson(action.arguments) as Record<string, unknown>, origin: 'server', raw: pyJsonDumps(action.arguments) }]);
    outputs.push(await run(rollout.tools, action, `call_${i}`));
  }
  await rollout.answer(communicateMessage(task), context);
  return { rollout, outputs, played };
}

describe('a τ² rollout’s agent calls', () => {
  it.each([
    ['retail', 'tau2-retail', '0', 'exchange_delivered_order_items', 'orders', '#W2378156'],
    ['railway', 'toolscale-railway', 'railway_cancel_trip', 'cancel_reservation', 'reservations', 'cz201'],
  ] as const)('%s: a write names the rows it changed, a read none, as the Task tab’s call does', async (name, suite, taskId, write, table, id) => {
    const domain = readTau2Domain(name);
    const { rollout, outputs, played } = await playRollout(domain, taskId);
    expect(outputs.map((output) => output.detail.tool)).toEqual(played.map((action) => action.name));
    for (const output of outputs) {
      expect(output.detail).toMatchObject({ kind: 'domain', domain: suite });
      expect(output.detail.changes.length > 0, output.detail.tool).toBe(output.detail.tool === write);
    }
    const written = outputs.find((output) => output.detail.tool === write)!.detail;
    expect(written.changes.map((change) => [change.table, change.id, change.op])).toContainEqual([table, id, 'update']);

    // The same calls in a Task-tab run of the domain: the same details, the same answers.
    const typed = typedTaskTools(domain, suite);
    for (const [i, action] of played.entries()) {
      const output = await run(typed.tools, action, `call_${i}`);
      expect(outputs[i]!.detail, action.name).toEqual(output.detail);
      expect(outputs[i]!.content).toBe(output.content);
    }
    // Graded as before: the golden conversation is right.
    expect((await rollout.grade()).reward).toBe(1);
  });

  it('a refused call gives τ²’s error and changes nothing', async () => {
    const retail = readTau2Domain('retail');
    const refused: Action = {
      actionId: 'refused',
      requestor: 'assistant',
      name: 'cancel_pending_order',
      arguments: new Map([
        ['order_id', '#W0000000'],
        ['reason', 'no longer needed'],
      ]),
      info: null,
      compareArgs: null,
    };
    const { outputs } = await playRollout(retail, '0', [refused]);
    expect(outputs[0]).toMatchObject({ isError: true, content: 'Error: Order not found' });
    expect(outputs[0]!.detail).toMatchObject({ kind: 'domain', tool: 'cancel_pending_order', changes: [], error: 'Error: Order not found' });
  });
});
