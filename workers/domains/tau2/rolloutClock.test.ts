// A rollout's clock (rolloutClock.ts): ToolScale's bank stamps the time, so its grading, which
// replays the conversation and the golden actions in fresh environments, must hand out the times
// the live conversation got, however long after the conversation it runs.

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { scriptedTurnContext } from '../../../e2e/fixtures/tau2/turnContext.ts';
import { REFERENCE_PRICING } from '../../engine/pricing.ts';
import { loadTau2Domain, TAU2_DOMAIN_FOLDERS, TAU2_GUIDELINE_FILES, type LoadedTau2Domain, type Tau2DomainName } from './domains.ts';
import { pyJsonDumps, toPlainJson } from './pyJson.ts';
import { Tau2Rollout } from './rollout.ts';
import { RolloutClock } from './rolloutClock.ts';
import { communicateMessage } from './scripted.ts';
import type { Tau2Task } from './tasks.ts';

const here = import.meta.dirname;
const read = (name: Tau2DomainName) => (file: string) => readFileSync(path.join(here, '..', TAU2_DOMAIN_FOLDERS[name], file), 'utf8');
const guidelines = { plain: readFileSync(path.join(here, TAU2_GUIDELINE_FILES.plain), 'utf8'), tools: readFileSync(path.join(here, TAU2_GUIDELINE_FILES.tools), 'utf8') };

const NOON = Date.parse('2025-01-15T12:00:00Z');

/** Plays the task's golden conversation as the engine drives a rollout, from 12:00:00 on a fake
 * clock that moves a second before each of the agent's calls; the real clock is back after. */
async function playGolden(domain: LoadedTau2Domain, task: Tau2Task): Promise<Tau2Rollout> {
  vi.useFakeTimers({ toFake: ['Date'], now: NOON });
  const rollout = new Tau2Rollout({ domain, task, user: { kind: 'scripted' }, guidelines, pricing: REFERENCE_PRICING });
  const context = scriptedTurnContext();
  await rollout.open(context);
  const actions = task.evaluationCriteria?.actions ?? [];
  expect(actions.every((a) => a.requestor === 'assistant')).toBe(true);
  for (const [i, action] of actions.entries()) {
    vi.setSystemTime(NOON + (i + 1) * 1000);
    rollout.agentCalls('', [{ id: `call_${i}`, name: action.name, arguments: toPlainJson(action.arguments) as Record<string, unknown>, origin: 'server', raw: pyJsonDumps(action.arguments) }]);
  }
  expect(await rollout.answer(communicateMessage(task), context)).toMatchObject({ kind: 'end' });
  vi.useRealTimers();
  return rollout;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('RolloutClock', () => {
  it('replays the recorded times in order, then the last; with none, the start', () => {
    let now = NOON;
    const clock = new RolloutClock(() => new Date(now));
    const unused = clock.replay();
    expect(unused().toISOString()).toBe('2025-01-15T12:00:00.000Z');
    now += 1000;
    expect(clock.live().toISOString()).toBe('2025-01-15T12:00:01.000Z');
    now += 5000;
    expect(clock.live().toISOString()).toBe('2025-01-15T12:00:06.000Z');
    now += 60_000;
    const replay = clock.replay();
    expect([replay(), replay(), replay()].map((d) => d.toISOString())).toEqual(['2025-01-15T12:00:01.000Z', '2025-01-15T12:00:06.000Z', '2025-01-15T12:00:06.000Z']);
    expect(clock.replay()().toISOString()).toBe('2025-01-15T12:00:01.000Z');
  });
});

describe('a bank rollout graded after the clock moved on', () => {
  const bank = loadTau2Domain('bank', read('bank'));

  it.each(bank.tasks.map((task) => [task.id, task] as const))('%s: the golden conversation gets its reward', async (_id, task) => {
    const rollout = await playGolden(bank, task);
    const liveHash = await rollout.conversation.environment.dbHash();
    // Graded on the real clock, long after 12:00.
    const verdict = await rollout.grade();
    expect(verdict.error).toBeUndefined();
    expect(verdict.reward).toBe(1);
    // The replay's and the golden actions' databases hold the live conversation's timestamps.
    expect(verdict.db).toMatchObject({ match: true, predictedHash: liveHash, goldHash: liveHash });
  });

  it('stamps the live times into the database', async () => {
    const rollout = await playGolden(bank, bank.tasks.find((t) => t.id === 'bank_lost_card_and_loan_payment')!);
    const loan = rollout.conversation.environment.getResponse({ id: 'check', name: 'get_loan_details', arguments: new Map([['loan_id', 'DHT44YS1']]), requestor: 'assistant' });
    expect(loan.content).toMatch(/"posted_at": "2025-01-15T12:00:0\dZ"/);
  });
});
