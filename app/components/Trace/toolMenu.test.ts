import { describe, expect, it } from 'vitest';
import { buildCallExpertTool } from '../../../workers/engine/protocols/functionCalling.ts';
import { describeModelParameter, type AliasDescription } from '../../../workers/engine/protocols/paper.ts';
import type { ToolSchema } from '../../../workers/engine/types.ts';
import { menuChoices } from './toolMenu.ts';

const searchers: AliasDescription[] = [{ alias: 'search-1', description: 'writes queries.', price: { inputPerM: 0.25, outputPerM: 2 }, latencySeconds: 3 }];
const answerers: AliasDescription[] = [
  { alias: 'answer-1', description: 'answers well.', price: { inputPerM: 1.25, outputPerM: 10 }, latencySeconds: 20 },
  { alias: 'answer-2', description: 'answers cheaply.' },
];

/** A paper tool as the engine builds it (its `model` parameter lists the aliases and prices). */
function paperTool(name: 'search' | 'answer', aliases: AliasDescription[]): ToolSchema {
  return {
    name,
    description: `${name} tool`,
    parameters: { type: 'object', properties: { model: { type: 'string', description: describeModelParameter(name, aliases) } }, required: ['model'] },
  };
}

describe('menuChoices', () => {
  const tools = [paperTool('search', searchers), paperTool('answer', answerers)];

  it('lists one choice per alias and highlights the chosen tool and alias', () => {
    const choices = menuChoices(tools, ['search', 'answer'], [{ name: 'answer', alias: 'answer-2' }]);
    expect(choices.map(({ tool, alias, chosen }) => [tool, alias, chosen])).toEqual([
      ['search', 'search-1', false],
      ['answer', 'answer-1', false],
      ['answer', 'answer-2', true],
    ]);
    expect(choices[1]?.about).toContain('answer-1: $1.25 in / $10 out per million tokens, about 20s');
    expect(choices[2]?.about).toContain('answer-2: unknown in / unknown out per million tokens, about unknown');
  });

  it('gives each alias its price and latency as the menu states them, for presenter view’s chips', () => {
    const choices = menuChoices(tools, null, []);
    expect(choices.map((choice) => choice.figures)).toEqual([
      { price: '$0.25 / $2', latency: '3s' },
      { price: '$1.25 / $10', latency: '20s' },
      { price: 'unknown', latency: 'unknown' },
    ]);
  });

  it('keeps only what was on offer', () => {
    expect(menuChoices(tools, ['answer'], []).map((c) => c.alias)).toEqual(['answer-1', 'answer-2']);
  });

  it('treats tools without aliases as one choice each, and reads call_expert’s experts', () => {
    const weather: ToolSchema = { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } };
    const menu = [weather, buildCallExpertTool(answerers)];
    const choices = menuChoices(menu, null, [{ name: 'get_weather' }, { name: 'call_expert', alias: 'answer-1' }]);
    expect(choices.map(({ tool, alias, chosen }) => [tool, alias, chosen])).toEqual([
      ['get_weather', null, true],
      ['call_expert', 'answer-1', true],
      ['call_expert', 'answer-2', false],
    ]);
  });
});
