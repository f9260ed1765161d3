import { describe, expect, it } from 'vitest';
import localScripted from '../../../cli/examples/local-scripted.json' with { type: 'json' };
import { parseConfig } from '../../../workers/hosts/config.ts';
import { REFERENCE_PRICING } from '../../../workers/engine/pricing.ts';
import { PAPER_EXPERTS_PRESET } from '../../../workers/engine/presets.ts';
import { checkDraft } from '../../state/draftChecker.ts';
import { EXAMPLE_CONFIG, type ConfigDraft } from '../../state/setupStore.ts';
import {
  addExpert,
  addProvider,
  changeProviderKind,
  clearModelPrice,
  expandPaperExperts,
  localDate,
  modelsInUse,
  nameProblem,
  parseNumberInput,
  priceRows,
  problemsUnder,
  removeExpert,
  removeProvider,
  setModelPrice,
  setPricingField,
  splitProblem,
  updateExpert,
  updateOrchestrator,
  updateProvider,
  withPaperExperts,
} from './draftEdits.ts';

const scripted = localScripted as ConfigDraft;
const TODAY = '2026-03-04';

function problems(draft: ConfigDraft): string[] {
  const check = checkDraft(draft);
  return check.ok ? [] : check.problems;
}

describe('modelsInUse', () => {
  it('lists the orchestrator first, then each expert model once', () => {
    expect(modelsInUse(scripted)).toEqual([
      'nvidia/Nemotron-Orchestrator-8B',
      'scripted/searcher',
      'scripted/coder',
      'scripted/answerer',
      'scripted/answerer-mini',
    ]);
  });

  it('resolves the paper preset and skips blank models', () => {
    const models = modelsInUse(updateOrchestrator(EXAMPLE_CONFIG, { model: '  ' }));
    expect(models).toEqual([...new Set(Object.values(PAPER_EXPERTS_PRESET).map((expert) => expert.model))]);
    expect(models).toContain('Qwen/Qwen2.5-Math-7B-Instruct');
  });
});

describe('provider edits', () => {
  it('adds an OpenAI-compatible provider with a base URL the schema accepts, and removes it', () => {
    const added = addProvider(scripted, ' ollama ', 'openai-compatible');
    expect(added.providers.ollama).toEqual({ kind: 'openai-compatible', baseUrl: 'http://localhost:8000/v1' });
    expect(problems(added)).toEqual([]);
    expect(removeProvider(added, 'ollama')).toEqual(scripted);
  });

  it('clearing a field removes it so the default applies', () => {
    const edited = updateProvider(scripted, 'scripted', { timeoutSeconds: undefined, baseUrl: 'http://h:1/v1' });
    expect(edited.providers.scripted).toEqual({ kind: 'openai-compatible', baseUrl: 'http://h:1/v1', maxRetries: 2 });
    expect(parseConfig(edited).providers.scripted?.timeoutSeconds).toBe(120);
  });

  it('removing a provider still in use is reported by the draft check, field by field', () => {
    const found = problems(removeProvider(scripted, 'scripted'));
    expect(found).toContain('orchestrator.provider: names provider "scripted", which is not in "providers" (known: none)');
    expect(found.filter((problem) => problem.endsWith('.provider: names provider "scripted", which is not in "providers" (known: none)'))).toHaveLength(5);
  });

  it('never touches a provider that does not exist', () => {
    expect(updateProvider(scripted, 'nope', { baseUrl: 'http://x/v1' })).toBe(scripted);
  });
});

describe('nameProblem', () => {
  it('refuses blank and taken names', () => {
    expect(nameProblem('  ', ['a'])).toBe('Give it a name.');
    expect(nameProblem(' a ', ['a'])).toBe('"a" is already used.');
    expect(nameProblem('b', ['a'])).toBeNull();
  });

  it('refuses "__proto__" and overlong names, as the config does', () => {
    expect(nameProblem('__proto__', [])).toBe('"__proto__" is reserved in JavaScript: choose another name.');
    expect(nameProblem('n'.repeat(201), [])).toBe('A name may be at most 200 characters.');
  });
});

describe('orchestrator edits', () => {
  it('sets and unsets thinking', () => {
    const on = updateOrchestrator(scripted, { enableThinking: true });
    expect(on.orchestrator.enableThinking).toBe(true);
    expect('enableThinking' in updateOrchestrator(on, { enableThinking: undefined }).orchestrator).toBe(false);
  });
});

describe('experts', () => {
  it('the paper preset adds the providers it needs and keeps existing ones', () => {
    const paper = withPaperExperts(scripted);
    expect(paper.experts).toBe('paper');
    expect(Object.keys(paper.providers).sort()).toEqual(['open-models', 'openai', 'scripted']);
    expect(problems(paper)).toEqual([]);
    const custom = { ...scripted, providers: { ...scripted.providers, openai: { kind: 'anthropic' as const } } };
    expect(withPaperExperts(custom).providers.openai).toEqual({ kind: 'anthropic' });
  });

  it('writes the paper preset out alias by alias, as a copy', () => {
    const expanded = expandPaperExperts(EXAMPLE_CONFIG);
    expect(expanded.experts).toEqual(PAPER_EXPERTS_PRESET);
    expect(expanded.experts).not.toBe(PAPER_EXPERTS_PRESET);
    expect(parseConfig(expanded)).toEqual({ ...parseConfig(EXAMPLE_CONFIG), experts: PAPER_EXPERTS_PRESET });
  });

  it('adds an expert on the orchestrator provider with no model, which the check reports', () => {
    const added = addExpert(scripted, 'answer-3', 'answer');
    expect(added.experts).toMatchObject({ 'answer-3': { tool: 'answer', provider: 'scripted', model: '' } });
    expect(problems(added)).toEqual([expect.stringMatching(/^experts\.answer-3\.model: /)]);
  });

  it('editing or removing one alias of the paper preset writes the rest out', () => {
    const edited = updateExpert(EXAMPLE_CONFIG, 'answer-4', { model: 'Qwen/Qwen3-14B', latencySeconds: undefined });
    expect(edited.experts).toMatchObject({ 'answer-4': { model: 'Qwen/Qwen3-14B', tool: 'answer' } });
    expect(edited.experts !== 'paper' && 'latencySeconds' in edited.experts['answer-4']!).toBe(false);
    const removed = removeExpert(EXAMPLE_CONFIG, 'search-3');
    expect(Object.keys(removed.experts)).toHaveLength(Object.keys(PAPER_EXPERTS_PRESET).length - 1);
  });

  it('removing the last expert of a paper tool is reported', () => {
    expect(problems(removeExpert(scripted, 'search-1'))).toEqual(['experts: the paper protocol needs at least one expert for "search"']);
  });
});

describe('prices', () => {
  it('finds each model in use: the config, the reference table, or unknown', () => {
    const draft = updateExpert(scripted, 'answer-2', { model: 'gpt-5-mini' });
    const rows = priceRows(updateExpert(draft, 'reasoner-1', { model: 'mystery-model' }), REFERENCE_PRICING);
    expect(rows.map((row) => [row.model, row.source])).toEqual([
      ['nvidia/Nemotron-Orchestrator-8B', 'config'],
      ['scripted/searcher', 'config'],
      ['mystery-model', 'unknown'],
      ['scripted/answerer', 'config'],
      ['gpt-5-mini', 'reference'],
    ]);
    expect(rows[2]?.price).toBeUndefined();
    expect(rows[4]?.price).toEqual({ inputPerM: 0.25, outputPerM: 2 });
  });

  it('looks a model up as the engine does (ignoring a provider prefix)', () => {
    const [row] = priceRows(updateOrchestrator(EXAMPLE_CONFIG, { model: 'openai/gpt-5' }), REFERENCE_PRICING);
    expect(row).toEqual({ model: 'openai/gpt-5', price: { inputPerM: 1.25, outputPerM: 10 }, source: 'reference' });
  });

  it('changing one reference price copies the others and dates a new table today', () => {
    const edited = setModelPrice(EXAMPLE_CONFIG, REFERENCE_PRICING, 'gpt-5', 'cachedInputPerM', 0.125, TODAY);
    expect(edited.pricing).toEqual({ asOf: TODAY, models: { 'gpt-5': { inputPerM: 1.25, outputPerM: 10, cachedInputPerM: 0.125 } } });
    expect(problems(edited)).toEqual([]);
    expect(priceRows(edited, REFERENCE_PRICING).find((row) => row.model === 'gpt-5')?.source).toBe('config');
  });

  it('a half-priced unknown model is reported by field until both prices are set', () => {
    const half = setModelPrice(scripted, REFERENCE_PRICING, 'mystery', 'inputPerM', 1, TODAY);
    expect(half.pricing?.asOf).toBe('2025-11-26');
    expect(problems(half)).toEqual([expect.stringMatching(/^pricing\.models\.mystery\.outputPerM: /)]);
    expect(problems(setModelPrice(half, REFERENCE_PRICING, 'mystery', 'outputPerM', 2, TODAY))).toEqual([]);
  });

  it('clearing every figure, or dropping the row, falls back to the reference table', () => {
    let draft = setModelPrice(EXAMPLE_CONFIG, REFERENCE_PRICING, 'unknown-x', 'inputPerM', 3, TODAY);
    draft = setModelPrice(draft, REFERENCE_PRICING, 'unknown-x', 'inputPerM', undefined, TODAY);
    expect(draft.pricing?.models).toEqual({});
    const overridden = setModelPrice(EXAMPLE_CONFIG, REFERENCE_PRICING, 'gpt-5', 'outputPerM', 12, TODAY);
    expect(clearModelPrice(overridden, 'gpt-5').pricing?.models).toEqual({});
    expect(clearModelPrice(EXAMPLE_CONFIG, 'gpt-5')).toBe(EXAMPLE_CONFIG);
  });

  it('sets and clears the table-wide rates and the date', () => {
    const rated = setPricingField(EXAMPLE_CONFIG, { codePerSecond: 0.001 }, TODAY);
    expect(rated.pricing).toEqual({ asOf: TODAY, codePerSecond: 0.001 });
    expect(setPricingField(rated, { codePerSecond: undefined, asOf: '2026-01-02' }, TODAY).pricing).toEqual({ asOf: '2026-01-02' });
    expect(problems(setPricingField(rated, { asOf: '' }, TODAY))).toEqual([expect.stringMatching(/^pricing\.asOf: must be the date/)]);
  });
});

describe('problems by field', () => {
  it('splits a problem into its field and message', () => {
    expect(splitProblem('providers.vllm.baseUrl: must be a full URL: like this')).toEqual({
      field: 'providers.vllm.baseUrl',
      message: 'must be a full URL: like this',
    });
    expect(splitProblem('(top level): Unrecognized key: "apiKey"')).toEqual({ field: '(top level)', message: 'Unrecognized key: "apiKey"' });
    expect(splitProblem('not valid JSON: Unexpected token')).toEqual({ field: '', message: 'not valid JSON: Unexpected token' });
  });

  it('selects the problems at a field or under it', () => {
    const list = ['experts: needs search', 'experts.a.model: too short', 'expertsX.b: no', 'pricing.models.Qwen/Qwen2.5-7B.outputPerM: missing'];
    expect(problemsUnder(list, 'experts')).toEqual(['needs search', 'too short']);
    expect(problemsUnder(list, 'experts', true)).toEqual(['needs search']);
    expect(problemsUnder(list, 'pricing.models.Qwen/Qwen2.5-7B')).toEqual(['missing']);
  });
});

describe('small parsers', () => {
  it('reads number inputs: empty is unset', () => {
    expect(parseNumberInput('')).toBeUndefined();
    expect(parseNumberInput(' 2.5 ')).toBe(2.5);
    expect(parseNumberInput('abc')).toBeUndefined();
  });

  it('formats a local date', () => {
    expect(localDate(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});

describe('changeProviderKind', () => {
  it('starts the provider afresh so no field of the old kind makes the config invalid', () => {
    const draft = addProvider(EXAMPLE_CONFIG, 'local', 'openai-compatible');
    const changed = changeProviderKind(draft, 'local', 'webllm');
    expect(changed.providers.local).toEqual({ kind: 'webllm' });
    expect(changeProviderKind(changed, 'local', 'openai-compatible').providers.local).toEqual({
      kind: 'openai-compatible',
      baseUrl: 'http://localhost:8000/v1',
    });
    expect(changeProviderKind(changed, 'local', 'webllm')).toBe(changed);
  });
});
