import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../workers/hosts/config.ts';
import { EXAMPLE_CONFIG } from '../../state/setupStore.ts';
import { aliasChoices, asExpert, asOrchestrator, customWeightsInDraft, describeUse } from './localDraft.ts';

const QWEN = { id: 'Qwen3-1.7B-q4f32_1-MLC' };
const CUSTOM = {
  id: 'Orchestrator-8B-q4f16_1-MLC',
  custom: { weightsUrl: 'https://huggingface.co/you/Orchestrator-8B-q4f16_1-MLC', quantization: 'q4f16_1' as const },
};

describe('putting a local model to work in the draft', () => {
  it('makes it the orchestrator through a webllm provider, in prompt tool mode, and the draft stays valid', () => {
    const draft = asOrchestrator(EXAMPLE_CONFIG, QWEN);
    expect(draft.providers.local).toEqual({ kind: 'webllm' });
    expect(draft.orchestrator).toMatchObject({ provider: 'local', model: QWEN.id, toolMode: 'prompt', maxTokens: 12000 });
    expect(() => parseConfig(draft)).not.toThrow();
    // Doing it again reuses the provider.
    expect(Object.keys(asOrchestrator(draft, { id: 'Qwen3-4B-q4f32_1-MLC' }).providers)).toEqual(Object.keys(draft.providers));
  });

  it('lists converted weights under the provider, and reads them back', () => {
    const draft = asOrchestrator(EXAMPLE_CONFIG, CUSTOM);
    expect(draft.providers.local?.models).toEqual({ [CUSTOM.id]: CUSTOM.custom });
    expect(customWeightsInDraft(draft)).toEqual({ id: CUSTOM.id, ...CUSTOM.custom });
    expect(customWeightsInDraft(EXAMPLE_CONFIG)).toBeUndefined();
    expect(() => parseConfig(draft)).not.toThrow();
    // A model library the config names comes back too: the Models panel asks before using it.
    const withLibrary = asOrchestrator(EXAMPLE_CONFIG, { ...CUSTOM, custom: { ...CUSTOM.custom, modelLibUrl: 'https://cdn.example/lib.wasm' } });
    expect(customWeightsInDraft(withLibrary)?.modelLibUrl).toBe('https://cdn.example/lib.wasm');
  });

  it('names the provider around one that is taken by a remote endpoint', () => {
    const taken = { ...EXAMPLE_CONFIG, providers: { ...EXAMPLE_CONFIG.providers, local: { kind: 'openai-compatible' as const, baseUrl: 'http://localhost:1/v1' } } };
    expect(asOrchestrator(taken, QWEN).orchestrator.provider).toBe('local-2');
  });

  it('puts it behind an existing alias of the paper preset, keeping the alias’s tool and description', () => {
    const choices = aliasChoices(EXAMPLE_CONFIG);
    expect(choices.map((choice) => choice.value)).toContain('alias:answer-1');
    expect(choices.slice(-3).map((choice) => choice.value)).toEqual(['new:search', 'new:enhance_reasoning', 'new:answer']);
    const draft = asExpert(EXAMPLE_CONFIG, 'alias:answer-1', QWEN, 'Qwen3 1.7B (q4f32)');
    if (draft.experts === 'paper') throw new Error('the preset should be written out');
    expect(draft.experts['answer-1']).toMatchObject({ tool: 'answer', provider: 'local', model: QWEN.id });
    // GPT-5's reply length and answer style do not carry over to a local Qwen model.
    expect(draft.experts['answer-1']).not.toHaveProperty('answerStyle');
    expect(draft.experts['answer-1']).not.toHaveProperty('maxTokens');
    expect(draft.experts['search-1']?.provider).toBe('openai');
    expect(parseConfig(draft).experts).not.toBe('paper');
  });

  it('adds a new alias with the next free name, for function calling too', () => {
    const paper = asExpert(EXAMPLE_CONFIG, 'new:answer', QWEN, 'Qwen3 1.7B (q4f32)');
    if (paper.experts === 'paper') throw new Error('the preset should be written out');
    // The preset holds answer-1 to answer-4.
    expect(paper.experts['answer-5']).toEqual({ tool: 'answer', provider: 'local', model: QWEN.id, description: 'runs in this browser (Qwen3 1.7B (q4f32)).' });

    const fc = { ...EXAMPLE_CONFIG, protocol: 'function-calling' as const, experts: {} };
    expect(aliasChoices(fc)).toEqual([{ value: 'new:call_expert', label: 'a new call_expert alias' }]);
    const withExpert = asExpert(fc, 'new:call_expert', QWEN, 'Qwen3 1.7B (q4f32)');
    expect(withExpert.experts).toMatchObject({ 'expert-1': { tool: 'call_expert', provider: 'local' } });
  });

  it('puts a GGUF model to work through a gguf provider, and says what changed (issue 24, item 13)', () => {
    const tiny = { id: 'tiny-qwen3.gguf' };
    const asBoss = asOrchestrator(EXAMPLE_CONFIG, tiny, 'gguf');
    expect(asBoss.providers.gguf).toEqual({ kind: 'gguf' });
    expect(asBoss.orchestrator).toMatchObject({ provider: 'gguf', model: tiny.id, toolMode: 'prompt' });
    expect(() => parseConfig(asBoss)).not.toThrow();
    expect(describeUse(EXAMPLE_CONFIG, asBoss, tiny.id)).toBe('Setup changed: the orchestrator is now tiny-qwen3.gguf (through the new provider “gguf”), its tools written into its prompt.');
    const asAnswer = asExpert(asBoss, 'alias:answer-1', tiny, 'tiny', 'gguf');
    expect(describeUse(asBoss, asAnswer, tiny.id)).toBe('Setup changed: alias answer-1 (answer) now calls tiny-qwen3.gguf, in place of gpt-5.');
    const added = asExpert(asAnswer, 'new:search', tiny, 'tiny', 'gguf');
    expect(describeUse(asAnswer, added, tiny.id)).toBe('Setup changed: the new alias search-4 (search) calls tiny-qwen3.gguf.');
    expect(() => parseConfig(added)).not.toThrow();
  });
});
