import { describe, expect, it } from 'vitest';
import { syntheticRun } from '../../../e2e/fixtures/syntheticRun.ts';
import type { RunEvent, RunEventOf } from '../../../workers/engine/events.ts';
import { foldEvents } from '../../state/runView.ts';
import { stopSignalOf, userTurnCost, userTurnsBefore, userTurnSummary, userTurnTokens } from './userTurn.ts';

const turn = (step: number, content: string | null, fields: Partial<RunEventOf<'user_turn'>> = {}): RunEventOf<'user_turn'> => ({
  runId: 'r',
  t: 0,
  type: 'user_turn',
  step,
  content,
  toolCalls: [],
  model: 'user-model',
  promptTokens: 1000,
  completionTokens: 100,
  costUsd: 0.00225,
  ...fields,
});

/** A two-step run with a τ² user: it opens step 1 before the orchestrator's request, answers
 * the agent after step 1's output, acts on its phone and stops after step 2's. */
function conversation(): RunEvent[] {
  const events = syntheticRun('r', 0, 2);
  const request1 = events.findIndex((e) => e.type === 'model_request' && e.step === 1);
  events.splice(request1, 0, turn(1, 'I want to return an order.'));
  const finished1 = events.findIndex((e) => e.type === 'step_finished' && e.step === 1);
  events.splice(finished1, 0, turn(1, 'The order is #W123.'));
  const finished2 = events.findIndex((e) => e.type === 'step_finished' && e.step === 2);
  events.splice(
    finished2,
    0,
    turn(2, null, { toolCalls: [{ name: 'toggle_data', arguments: {}, result: 'Mobile data is on.', error: false }] }),
    turn(2, 'Thanks, that is all. ###STOP###', { model: null, promptTokens: 0, completionTokens: 0, costUsd: 0 }),
  );
  return events;
}

describe('the user turns of a τ² conversation in the view', () => {
  const folded = foldEvents(null, conversation());
  if (!folded) throw new Error('no view');
  const view = folded;

  it('sit in their step, the opening marked as said before the orchestrator’s turn', () => {
    expect(view.steps[0]?.userTurns?.map((t) => [t.content, t.beforeAgent ?? false])).toEqual([
      ['I want to return an order.', true],
      ['The order is #W123.', false],
    ]);
    expect(view.steps[1]?.userTurns?.map((t) => t.beforeAgent ?? false)).toEqual([false, false]);
  });

  it('are numbered across the conversation', () => {
    expect(userTurnsBefore(view.steps, 0)).toBe(0);
    expect(userTurnsBefore(view.steps, 1)).toBe(2);
    expect(userTurnsBefore(view.steps, 5)).toBe(4);
  });
});

describe('a user-turn card’s figures', () => {
  it('name the stop signal the user gave, if any', () => {
    expect(stopSignalOf({ content: 'Thanks. ###STOP###' })).toBe('###STOP###');
    expect(stopSignalOf({ content: '###TRANSFER###' })).toBe('###TRANSFER###');
    expect(stopSignalOf({ content: 'This is ###OUT-OF-SCOPE###' })).toBe('###OUT-OF-SCOPE###');
    expect(stopSignalOf({ content: 'Please stop by tomorrow.' })).toBeNull();
    expect(stopSignalOf({ content: null })).toBeNull();
  });

  it('sum up what the user said, or the phone tools it called', () => {
    expect(userTurnSummary({ content: 'I want\n  to return it.', toolCalls: [] })).toBe('I want to return it.');
    expect(userTurnSummary({ content: null, toolCalls: [{ name: 'toggle_data', arguments: {}, result: '', error: false }] })).toBe('toggle_data');
    expect(userTurnSummary({ content: 'x'.repeat(300), toolCalls: [] })).toHaveLength(120);
    expect(userTurnSummary({ content: '  ', toolCalls: [] })).toBe('said nothing');
  });

  it('give a model’s tokens and cost, a scripted user’s as nothing, an unpriced one’s as unknown', () => {
    expect(userTurnTokens({ model: 'user-model', promptTokens: 1000, completionTokens: 100 })).toBe('1,000 in · 100 out');
    expect(userTurnTokens({ model: null, promptTokens: 0, completionTokens: 0 })).toBe('—');
    expect(userTurnCost({ model: 'user-model', costUsd: 0.00225 })).toBe('$0.00225');
    expect(userTurnCost({ model: null, costUsd: 0 })).toBe('$0 (scripted)');
    expect(userTurnCost({ model: 'user-model', costUsd: null })).toBe('unknown');
  });
});
