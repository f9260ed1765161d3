import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../workers/hosts/config.ts';
import { PREFERENCE_PRESETS } from '../../../workers/engine/preferences.ts';
import { describeToolWeight, formatWeight, OBJECTIVES, PRESETS, weighedTargets } from './preferenceRows.ts';

const example = (name: string): unknown => JSON.parse(readFileSync(new URL(`../../../cli/examples/${name}.json`, import.meta.url), 'utf8'));

describe('weighedTargets', () => {
  it('lists the paper tools, each with the aliases behind it', () => {
    const { groups, others } = weighedTargets(parseConfig(example('local-scripted')), {});
    expect(groups.map((group) => [group.tool.name, group.aliases.map((alias) => alias.name)])).toEqual([
      ['search', ['search-1']],
      ['enhance_reasoning', ['reasoner-1']],
      ['answer', ['answer-1', 'answer-2']],
    ]);
    expect(groups[2]?.aliases[1]).toMatchObject({ kind: 'alias', model: 'scripted/answerer-mini' });
    expect(others).toEqual([]);
  });

  it('resolves the "paper" experts preset', () => {
    const { groups } = weighedTargets(parseConfig(example('paper-vllm')), {});
    const aliases = groups.flatMap((group) => group.aliases.map((alias) => alias.name));
    expect(aliases).toContain('reasoner-1');
    expect(aliases).toContain('answer-math-2');
    expect(groups.find((group) => group.tool.name === 'search')?.aliases[0]?.model).toBe('gpt-5');
  });

  it('lists the function-calling tools and call_expert with its experts', () => {
    const { groups } = weighedTargets(parseConfig(example('function-calling-scripted')), {});
    expect(groups.map((group) => [group.tool.name, group.aliases.map((alias) => alias.name)])).toEqual([
      ['search_corpus', []],
      ['call_expert', ['expert-1']],
    ]);
  });

  it('lists the enabled tools you wrote beside the built-in ones', () => {
    const base = example('function-calling-scripted') as Record<string, unknown>;
    const customTool = (name: string, enabled: boolean) => ({
      name,
      description: `${name} does a thing.`,
      parameters: { type: 'object', properties: {} },
      code: 'return 1;',
      enabled,
    });
    const config = parseConfig({ ...base, customTools: [customTool('convert_units', true), customTool('switched_off', false)] });
    expect(weighedTargets(config, {}).groups.map((group) => group.tool.name)).toEqual(['search_corpus', 'convert_units', 'call_expert']);
  });

  it('keeps weighted names the config lacks, and lists only those when the config is invalid', () => {
    const config = parseConfig(example('local-scripted'));
    expect(weighedTargets(config, { 'search-1': 0.5, 'old-alias': -0.4 }).others.map((other) => other.name)).toEqual(['old-alias']);
    expect(weighedTargets(null, { b: 1, a: -1 })).toEqual({
      groups: [],
      others: [
        { name: 'a', kind: 'tool' },
        { name: 'b', kind: 'tool' },
      ],
    });
  });
});

describe('labels', () => {
  it('has one preset per engine preset, and plain words for each objective', () => {
    expect(PRESETS.map((preset) => preset.name).sort()).toEqual(Object.keys(PREFERENCE_PRESETS).sort());
    expect(PRESETS.map((preset) => preset.label)).toEqual(['Cheapest', 'Balanced', 'Best answer', 'Fastest']);
    expect(OBJECTIVES.map((objective) => [objective.name, objective.label])).toEqual([
      ['outcome', 'Correct answer'],
      ['cost', 'Low cost'],
      ['latency', 'Low latency'],
    ]);
  });

  it('says a tool weight in words', () => {
    expect(describeToolWeight(0)).toBe('neutral');
    expect(describeToolWeight(0.2)).toBe('slightly prefer');
    expect(describeToolWeight(0.5)).toBe('prefer');
    expect(describeToolWeight(-1)).toBe('strongly avoid');
    expect(describeToolWeight(-0.4)).toBe('avoid');
  });

  it('formats weights without float noise, with a real minus sign', () => {
    expect(formatWeight(0.30000000000000004)).toBe('0.3');
    expect(formatWeight(-0.7, true)).toBe('−0.7');
    expect(formatWeight(0.25, true)).toBe('+0.25');
    expect(formatWeight(0, true)).toBe('0');
  });
});
