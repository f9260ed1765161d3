// Rollouts with the group reward, and `orchestra reward` on a hand-checked group.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliServer } from '../e2e/fixtures/scriptedServerHooks.ts';
import { PREFERENCE_PRESETS } from '../workers/engine/preferences.ts';
import { computeGroupReward } from '../workers/engine/reward.ts';
import type { GroupSummary } from './summary.ts';
import { jsonLines, loadScenario, runCli, writeConfig } from '../e2e/fixtures/cliHarness.ts';

const TASK = 'What is the population of the capital of Finland?';
const cli = useCliServer('cli-rollouts');

describe('orchestra run --rollouts', () => {
  it('runs the rollouts, marks each against --correct, and adds rewards and advantages', async () => {
    cli.server.reset(loadScenario('cli-rollouts'));
    const { path } = writeConfig(cli.dir, 'local-scripted.json', cli.server.url);
    const result = await runCli(['run', '--config', path, '--task', TASK, '--rollouts', '3', '--correct', ' 558,457 ', '--json']);
    expect(result.code).toBe(0);
    const summary = jsonLines<GroupSummary>(result.stdout).at(-1)!;
    expect(summary.type).toBe('summary');
    expect(summary.rollouts.map((r) => [r.answer, r.correct, r.stopReason])).toEqual([
      ['558,457', true, 'answered'],
      ['600,000', false, 'answered'],
      ['558,457', true, 'answered'],
    ]);
    // The reward's tool features are the calls per alias.
    expect(summary.rollouts.map((r) => r.toolCounts)).toEqual([
      { 'search-1': 1, 'answer-1': 1 },
      { 'answer-2': 1 },
      { 'search-1': 1, 'answer-2': 1 },
    ]);
    expect(new Set(summary.rollouts.map((r) => r.runId)).size).toBe(3);
    expect(summary.answer).toBe('558,457');
    expect(summary.correct).toBe(true);
    expect(summary.costUsd).toBeCloseTo(summary.rollouts.reduce((sum, r) => sum + r.costUsd, 0), 12);
    expect(summary.turns).toBe(5);

    // The config's preference ("balanced") over exactly these rollouts.
    const expected = computeGroupReward(
      summary.rollouts.map((r) => ({ correct: r.correct === true, costUsd: r.costUsd, latencyMs: r.latencyMs, toolCounts: r.toolCounts })),
      PREFERENCE_PRESETS.balanced,
    );
    expect(summary.rewards).toEqual(expected.rewards);
    expect(summary.advantages).toEqual(expected.advantages);
    expect(summary.rewards?.[1]).toBe(0);
    expect(summary.rewards?.[0]).toBeGreaterThan(0);
    expect(summary.rewards?.[2]).toBeGreaterThan(0);
    expect(summary).toMatchObject({ mean: expected.mean, std: expected.std, lowSpread: expected.lowSpread, tooSmall: false });
  }, 60_000);

  it('says rewards need --correct when it is missing', async () => {
    cli.server.reset(loadScenario('cli-rollouts'));
    const { path } = writeConfig(cli.dir, 'local-scripted.json', cli.server.url);
    const json = await runCli(['run', '--config', path, '--task', TASK, '--rollouts', '2', '--json']);
    expect(json.code).toBe(0);
    const summary = jsonLines<GroupSummary>(json.stdout).at(-1)!;
    expect(summary.rollouts.map((r) => r.correct)).toEqual([null, null]);
    expect(summary.rewards).toBeNull();
    expect(summary.advantages).toBeNull();
    expect(summary.rewardNote).toContain('--correct');
    expect(summary.tooSmall).toBe(true);
  }, 60_000);
});

describe('orchestra reward', () => {
  // Worked by hand. Features over the group: search-1 counts [1, 2, 0], to be avoided (weight
  // −0.2), so fewer calls score higher → (2 − x)/2 = [0.5, 0, 1] at weight 0.2; outcome [1, 1, 0];
  // cost [0.01, 0.03, 0.02] and latency [1000, 3000, 2000], lower is better → [1, 0, 0.5].
  // Weights: outcome 0.5, cost 0.3, latency 0.2.
  //   A: 0.2·0.5 + 0.5 + 0.3·1 + 0.2·1 = 1.1;  B: 0.2·0 + 0.5 + 0 + 0 = 0.5;  C: wrong → 0.
  //   mean 1.6/3 ≈ 0.533333; sample std √((0.566667² + 0.033333² + 0.533333²) / 2) = √0.303333 ≈ 0.550757;
  //   advantages 0.566667/0.550757 ≈ 1.028885, −0.033333/… ≈ −0.060523, −0.533333/… ≈ −0.968362.
  const input = {
    preference: { outcome: 0.5, cost: 0.3, latency: 0.2, tools: { 'search-1': -0.2 } },
    rollouts: [
      { toolCounts: { 'search-1': 1 }, correct: true, costUsd: 0.01, latencyMs: 1000 },
      { toolCounts: { 'search-1': 2 }, correct: true, costUsd: 0.03, latencyMs: 3000 },
      { toolCounts: {}, correct: false, costUsd: 0.02, latencyMs: 2000 },
    ],
  };

  it('prints the rewards and advantages of a hand-checked group', async () => {
    const file = join(cli.dir, 'reward.json');
    writeFileSync(file, JSON.stringify(input));
    const result = await runCli(['reward', '--input', file]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout) as Record<string, unknown> & { rewards: number[]; advantages: number[] };
    expect(Object.keys(output).sort()).toEqual(
      ['advantages', 'lowSpread', 'mean', 'normalized', 'rewards', 'skippedFeatures', 'std', 'tooSmall'].sort(),
    );
    output.rewards.forEach((reward, i) => expect(reward).toBeCloseTo([1.1, 0.5, 0][i]!, 12));
    output.advantages.forEach((advantage, i) => expect(advantage).toBeCloseTo([1.028885, -0.060523, -0.968362][i]!, 5));
    expect(output.mean).toBeCloseTo(1.6 / 3, 12);
    expect(output.std).toBeCloseTo(Math.sqrt(0.91 / 3), 12);
    expect(output).toMatchObject({ lowSpread: false, tooSmall: false, skippedFeatures: [] });
    expect(output.normalized).toEqual([
      { 'search-1': 0.5, outcome: 1, cost: 1, latency: 1 },
      { 'search-1': 0, outcome: 1, cost: 0, latency: 0 },
      { 'search-1': 1, outcome: 0, cost: 0.5, latency: 0.5 },
    ]);
  }, 30_000);

  it('reads a preset name from standard input, and names the field of a bad input (exit code 2)', async () => {
    const preset = await runCli(['reward', '--input', '-'], { stdin: JSON.stringify({ ...input, preference: 'best-answer' }) });
    expect(preset.code).toBe(0);
    // best-answer weighs only the outcome: [1, 1, 0].
    expect(JSON.parse(preset.stdout)).toMatchObject({ rewards: [1, 1, 0], skippedFeatures: [] });

    const bad = await runCli(['reward', '--input', '-'], {
      stdin: JSON.stringify({ preference: 'greedy', rollouts: [{ correct: 'yes', costUsd: 0.01, latencyMs: 5 }] }),
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('preference');
    expect(bad.stderr).toContain('rollouts.0.correct');
  }, 30_000);
});
