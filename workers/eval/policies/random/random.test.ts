import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../../../engine/types.ts';
import { createRandom, createRandomOrchestrator, hashText, randomArguments, taskWords } from './random.ts';

const paperTools: ToolSchema[] = ['enhance_reasoning', 'answer', 'search'].map((name) => ({
  name,
  description: name,
  parameters: { type: 'object', properties: { model: { type: 'string' } }, required: ['model'] },
}));
const aliases = { search: ['search-1', 'search-2'], answer: ['answer-1', 'answer-2'], enhance_reasoning: ['reasoner-1'] };

async function route(seed: string): Promise<string[]> {
  const model = createRandomOrchestrator({ seed, task: 'What is the population of the capital of Finland?', aliases });
  const calls: string[] = [];
  for (let turn = 0; turn < 12; turn++) {
    const completion = await model.complete({ messages: [], tools: paperTools });
    for (const call of completion.toolCalls ?? []) calls.push(`${call.name}(${call.arguments})`);
  }
  return calls;
}

describe('the random policy', () => {
  it('takes the same route for the same seed, and another for another seed', async () => {
    const first = await route('seed-a');
    expect(await route('seed-a')).toEqual(first);
    expect(await route('seed-b')).not.toEqual(first);
    // Every call is one of the offered tools with one of its aliases.
    for (const call of first) expect(call).toMatch(/^(search\("?\{"model":"search-[12]"\}|answer\(\{"model":"answer-[12]"\}|enhance_reasoning\(\{"model":"reasoner-1"\})\)$/);
  });

  it('spreads its picks over the tools on offer', async () => {
    const random = createRandom('spread');
    const counts = [0, 0, 0];
    for (let i = 0; i < 3000; i++) counts[Math.floor(random() * 3)]! += 1;
    for (const count of counts) expect(count).toBeGreaterThan(900);
  });

  it('draws schema-valid arguments for a domain tool from the task\'s words', () => {
    const tool: ToolSchema = {
      name: 'cancel_order',
      description: 'Cancel.',
      parameters: {
        type: 'object',
        properties: { order_id: { type: 'string' }, reason: { type: 'string', enum: ['no_longer_needed', 'ordered_by_mistake'] } },
        required: ['order_id', 'reason'],
      },
    };
    const words = taskWords('Please cancel O-5001 (maya.chen@example.com).');
    expect(words).toContain('O-5001');
    expect(words).toContain('maya.chen@example.com');
    const args = randomArguments(tool, {}, createRandom('x'), words);
    expect(words).toContain(args.order_id);
    expect(['no_longer_needed', 'ordered_by_mistake']).toContain(args.reason);
  });

  it('hashes text the same way every time', () => {
    expect(hashText('suite')).toBe(hashText('suite'));
    expect(hashText('suite')).toMatch(/^[0-9a-f]{32}$/);
    expect(hashText('suite')).not.toBe(hashText('suitf'));
  });
});
