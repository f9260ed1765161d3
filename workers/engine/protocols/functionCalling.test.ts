import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../types.ts';
import { expertRequest, orchestratorTurnContent, SYSTEM_SUFFIX } from './functionCalling.ts';

describe('what tau2 keeps of an orchestrator turn (llm_utils.py, generate)', () => {
  it('keeps the text after the reasoning, stripped, and the inside of the last <message>', () => {
    expect(orchestratorTurnContent('<think>\nhm\n</think>\n\n<message> Hello </message>', false)).toBe(' Hello ');
    expect(orchestratorTurnContent('<message>one</message> and <message>two</message>', false)).toBe('two');
    expect(orchestratorTurnContent('<think>x</think>\n Paris. \n', false)).toBe('Paris.');
    // Five characters or fewer are kept as they are, tags included.
    expect(orchestratorTurnContent('<message></message>', false)).toBe('');
    expect(orchestratorTurnContent('<message>Hi', false)).toBe('<message>Hi');
  });

  it('cuts calls written as text off, as a hermes parser leaves the text before the first', () => {
    expect(orchestratorTurnContent('<think>a</think>\nLooking.\n<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', true)).toBe('Looking.');
    expect(orchestratorTurnContent('<tool_call>\n{"name": "f", "arguments": {}}\n</tool_call>', true)).toBe('');
  });
});

describe('how an expert is asked (llm_utils.py at d882ee7, generate)', () => {
  const policy = 'Be kind.';
  const history: ChatMessage[] = [
    { role: 'system', content: policy + SYSTEM_SUFFIX },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] },
    { role: 'tool', toolCallId: 'c1', name: 'f', content: '42' },
  ];

  it('asks GPT-5 through the Responses API with high effort: the policy alone, nothing appended', () => {
    const asked = expertRequest(history, policy, 'openai/gpt-5');
    expect(asked).toEqual({ messages: [{ role: 'system', content: policy }, ...history.slice(1)], api: 'responses', reasoningEffort: 'high' });
    expect(history[0]?.content).toBe(policy + SYSTEM_SUFFIX);
  });

  it('gives a Qwen-family expert the orchestrator’s system turn, suffix included, through Chat Completions', () => {
    expect(expertRequest(history, policy, 'Qwen/Qwen3-32B')).toEqual({ messages: history });
  });

  it('gives any other model the policy alone, through Chat Completions', () => {
    expect(expertRequest(history, policy, 'claude-sonnet-4')).toEqual({ messages: [{ role: 'system', content: policy }, ...history.slice(1)] });
  });
});
