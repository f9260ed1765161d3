import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../types.ts';
import { expertConversation, GPT5_LAST_MESSAGE_SUFFIX, orchestratorTurnContent, SYSTEM_SUFFIX } from './functionCalling.ts';

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

describe('what an expert reads (llm_utils.py, to_litellm_messages)', () => {
  const policy = 'Be kind.';
  const history: ChatMessage[] = [
    { role: 'system', content: policy + SYSTEM_SUFFIX },
    { role: 'user', content: 'Hi' },
    { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'f', arguments: {} }] },
    { role: 'tool', toolCallId: 'c1', name: 'f', content: '42' },
  ];

  it('gives GPT-5 the policy alone and appends its line to the last message', () => {
    const messages = expertConversation(history, policy, 'openai/gpt-5');
    expect(messages[0]).toEqual({ role: 'system', content: policy });
    expect(messages[3]).toEqual({ role: 'tool', toolCallId: 'c1', name: 'f', content: `42${GPT5_LAST_MESSAGE_SUFFIX}` });
    expect(history[3]?.content).toBe('42');
  });

  it('gives a Qwen-family expert the orchestrator’s system turn, suffix included, and nothing appended', () => {
    expect(expertConversation(history, policy, 'Qwen/Qwen3-32B')).toEqual(history);
  });

  it('gives any other model the policy alone', () => {
    expect(expertConversation(history, policy, 'claude-sonnet-4')).toEqual([{ role: 'system', content: policy }, ...history.slice(1)]);
  });
});
