// The random baseline: an "orchestrator" that picks, each turn, one of the tools on offer uniformly
// at random, with a random alias and arguments drawn from the tool's schema (strings from the
// task's own words, so an id or an e-mail in the task can come up). It is seeded per policy, task
// and rollout, so a suite gives the same routes whatever the concurrency, run after run.

import { CALL_EXPERT_TOOL, PAPER_TOOLS } from '../../../engine/config.ts';
import type { ChatCompletion, ChatModel, ChatRequest, JsonSchema, ToolSchema } from '../../../engine/types.ts';

/** The model id the random policy's turns are recorded under (priced at $0). */
export const RANDOM_POLICY_MODEL = 'random-policy';
const FINAL_MESSAGE = 'I have done what I could with the tools available.';

export type Random = () => number;

/** A 128-bit seed from a string (MurmurHash3's mixing, four lanes). */
function seedFrom(text: string): [number, number, number, number] {
  let h1 = 1779033703;
  let h2 = 3144134277;
  let h3 = 1013904242;
  let h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  return [(h1 ^ h2 ^ h3 ^ h4) >>> 0, (h2 ^ h1) >>> 0, (h3 ^ h1) >>> 0, (h4 ^ h1) >>> 0];
}

/** A 128-bit hash of a text, as 32 hex digits: the same text, the same hash (not cryptographic). */
export function hashText(text: string): string {
  return seedFrom(text)
    .map((lane) => lane.toString(16).padStart(8, '0'))
    .join('');
}

/** A seeded generator of numbers in [0, 1) (sfc32): the same seed, the same sequence. */
export function createRandom(seed: string): Random {
  let [a, b, c, d] = seedFrom(seed);
  return () => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: Random): T | undefined {
  return items[Math.floor(random() * items.length)];
}

/** Words of the task a random string argument is drawn from: ids, e-mails, dates, names. */
export function taskWords(task: string): string[] {
  const words = task.match(/[\p{L}\p{N}][\p{L}\p{N}@._:-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? [];
  return [...new Set(words)];
}

type SchemaNode = {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
};

/** A value of the schema's type, at random. */
function randomValue(schema: SchemaNode, random: Random, words: readonly string[], depth: number): unknown {
  if (schema.enum && schema.enum.length > 0) return pick(schema.enum, random);
  const type = Array.isArray(schema.type) ? pick(schema.type, random) : schema.type;
  switch (type) {
    case 'integer':
      return Math.floor(random() * 10);
    case 'number':
      return Math.round(random() * 1000) / 100;
    case 'boolean':
      return random() < 0.5;
    case 'null':
      return null;
    case 'array':
      return depth > 4 || !schema.items ? [] : [randomValue(schema.items, random, words, depth + 1)];
    case 'object':
      return depth > 4 ? {} : randomObject(schema, random, words, depth + 1);
    default:
      return pick(words, random) ?? 'x';
  }
}

function randomObject(schema: SchemaNode, random: Random, words: readonly string[], depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  const required = new Set(schema.required ?? []);
  for (const [key, child] of Object.entries(schema.properties ?? {})) {
    if (required.has(key) || random() < 0.5) result[key] = randomValue(child, random, words, depth);
  }
  return result;
}

/** Arguments for a tool, at random: an alias for the paper's tools and call_expert, the schema's
 * types for any other tool. */
export function randomArguments(
  tool: ToolSchema,
  aliases: Readonly<Record<string, readonly string[]>>,
  random: Random,
  words: readonly string[],
): Record<string, unknown> {
  const choices = aliases[tool.name];
  if ((PAPER_TOOLS as readonly string[]).includes(tool.name)) return { model: pick(choices ?? [], random) ?? '' };
  if (tool.name === CALL_EXPERT_TOOL) return { expert: pick(choices ?? [], random) ?? '' };
  return randomObject(tool.parameters as JsonSchema & SchemaNode, random, words, 0);
}

export interface RandomOrchestratorOptions {
  seed: string;
  task: string;
  /** The aliases on offer per tool: the paper's tools, and call_expert. */
  aliases: Readonly<Record<string, readonly string[]>>;
}

/**
 * The random policy as a chat model, so that it runs through the ordinary loop and protocols (the
 * loop offers it the tools as a server would). It ends a function-calling run with a message to
 * the user as often as it picks any one tool; a paper-protocol run ends when it picks `answer`.
 */
export function createRandomOrchestrator(options: RandomOrchestratorOptions): ChatModel {
  const random = createRandom(options.seed);
  const words = taskWords(options.task);
  let calls = 0;
  return {
    model: RANDOM_POLICY_MODEL,
    label: `random policy (seed ${options.seed})`,
    supportsServerTools: true,
    complete(request: ChatRequest): Promise<ChatCompletion> {
      const tools = request.tools ?? [];
      const paper = tools.some((tool) => (PAPER_TOOLS as readonly string[]).includes(tool.name));
      const done: ChatCompletion = { content: '', finishReason: 'stop', latencyMs: 0, model: RANDOM_POLICY_MODEL, usage: { promptTokens: 0, completionTokens: 0 } };
      const tool = paper ? pick(tools, random) : pick([...tools, null], random);
      if (!tool) return Promise.resolve({ ...done, content: `<message>${FINAL_MESSAGE}</message>` });
      const args = randomArguments(tool, options.aliases, random, words);
      calls += 1;
      return Promise.resolve({
        ...done,
        finishReason: 'tool_calls',
        toolCalls: [{ id: `random-${calls}`, name: tool.name, arguments: JSON.stringify(args) }],
      });
    },
  };
}
