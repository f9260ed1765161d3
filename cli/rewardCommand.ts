// `orchestra reward`: the paper's group reward for rollouts given as JSON.

import { readNamedFile } from './files.ts';
import { jsonLine } from './format.ts';
import { z } from '../workers/engine/zod.ts';
import { PREFERENCE_PRESETS } from '../workers/engine/preferences.ts';
import { preferenceSchema } from '../workers/engine/preferenceSchema.ts';
import { computeGroupReward } from '../workers/engine/reward.ts';
import type { CliIo } from './io.ts';
import { EXIT_CODES, parseCommandArgs, printUsage, REWARD_USAGE, UsageError } from './usage.ts';

const presetNames = Object.keys(PREFERENCE_PRESETS) as [keyof typeof PREFERENCE_PRESETS, ...Array<keyof typeof PREFERENCE_PRESETS>];

const rewardInputSchema = z.object({
  preference: z.union([z.enum(presetNames), preferenceSchema]),
  rollouts: z
    .array(
      z.object({
        toolCounts: z.record(z.string(), z.number().nonnegative()).default({}),
        correct: z.boolean(),
        costUsd: z.number().nonnegative(),
        latencyMs: z.number().nonnegative(),
      }),
    )
    .min(1, 'needs at least one rollout'),
});

export async function rewardCommand(argv: string[], io: CliIo): Promise<number> {
  const args = parseCommandArgs(argv, { input: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const, REWARD_USAGE);
  if (args.help) return printUsage(io, REWARD_USAGE);
  if (!args.input) throw new UsageError('--input <file.json> is required.', REWARD_USAGE);
  const text = args.input === '-' ? await io.readStdin() : readNamedFile(args.input, 'the reward input', { maxBytes: 16 * 1024 * 1024 });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${args.input}: not valid JSON (${(error as Error).message}).`);
  }
  const parsed = rewardInputSchema.safeParse(value);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  - ${issue.path.join('.') || '(top level)'}: ${issue.message}`);
    throw new UsageError(`${args.input}: the reward input is not valid:\n${problems.join('\n')}`);
  }
  const { preference, rollouts } = parsed.data;
  const vector = typeof preference === 'string' ? PREFERENCE_PRESETS[preference] : preference;
  let reward;
  try {
    reward = computeGroupReward(rollouts, vector);
  } catch (error) {
    throw new UsageError(`${args.input}: ${(error as Error).message}.`);
  }
  const { rewards, advantages, mean, std, lowSpread, tooSmall, normalized, skippedFeatures } = reward;
  io.stdout.write(`${jsonLine({ rewards, advantages, mean, std, lowSpread, tooSmall, normalized, skippedFeatures })}\n`);
  return EXIT_CODES.ok;
}
