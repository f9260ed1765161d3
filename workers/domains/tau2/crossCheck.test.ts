// The "Done when" of issue 23: a scripted agent and user replay every shipped τ² task's golden
// conversation (and wrong ones on purpose); our grader's verdicts must equal, criterion by
// criterion, (1) τ²-Bench's own evaluator's on the same conversations, recorded once in
// e2e/fixtures/tau2/reference-verdicts.json by score_with_tau2.py, database hashes included, and
// (2) criteria.py's, our standard-library Python port of the criteria, run here on every test run.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildCases, casesAsPythonJson, type CrossCheckCase } from '../../../e2e/fixtures/tau2/cases.ts';

const FIXTURES = path.resolve(import.meta.dirname, '../../../e2e/fixtures/tau2');

interface ReferenceVerdict {
  id: string;
  reward: number;
  breakdown: Record<string, number>;
  db_match?: boolean;
  env_assertions?: boolean[];
  actions?: boolean[];
  communicate?: boolean[];
  hashes?: (string | null)[];
  note?: string;
}

let cases: CrossCheckCase[] = [];

beforeAll(async () => {
  cases = [...(await buildCases('retail')), ...(await buildCases('telecom'))];
}, 180_000);

describe('τ² grading cross-check', () => {
  it('covers every shipped task and wrong conversations of each kind', () => {
    const golden = cases.filter((c) => c.variant === 'golden');
    expect(golden.filter((c) => c.domain === 'retail')).toHaveLength(114);
    expect(golden.filter((c) => c.domain === 'telecom')).toHaveLength(114);
    for (const variant of ['wrong-write', 'missing-communicate', 'wrong-argument', 'skipped-user-action', 'max-steps']) {
      const wrong = cases.filter((c) => c.variant === variant);
      expect(wrong.length, variant).toBeGreaterThan(5);
      // Wrong conversations must mostly fail, or the comparison could not tell graders apart.
      expect(wrong.filter((c) => c.verdict.reward === 0).length, variant).toBeGreaterThan(wrong.length / 2);
    }
  });

  it("agrees with τ²-Bench's own evaluator on every conversation, criterion by criterion", () => {
    const reference = JSON.parse(readFileSync(path.join(FIXTURES, 'reference-verdicts.json'), 'utf8')) as ReferenceVerdict[];
    const byId = new Map(cases.map((c) => [c.id, c]));
    expect(reference.length).toBe(cases.length);
    const disagreements: string[] = [];
    for (const expected of reference) {
      const ours = byId.get(expected.id);
      if (!ours) {
        disagreements.push(`${expected.id}: no such conversation here`);
        continue;
      }
      const v = ours.verdict;
      const say = (what: string, a: unknown, b: unknown) => {
        if (JSON.stringify(a) !== JSON.stringify(b)) disagreements.push(`${expected.id}: ${what} is ${JSON.stringify(a)}, τ² says ${JSON.stringify(b)}`);
      };
      say('the reward', v.reward, expected.reward);
      for (const [criterion, reward] of Object.entries(expected.breakdown ?? {})) say(criterion, v.criteria.find((c) => c.criterion === criterion)?.reward, reward);
      if (expected.db_match !== undefined) say('the database match', v.db?.match, expected.db_match);
      if (expected.env_assertions?.length) say('the assertions', v.envAssertions?.map((a) => a.met), expected.env_assertions);
      if (expected.actions?.length) say('the action checks', v.actions?.map((a) => a.matched), expected.actions);
      if (expected.communicate?.length) say('the communicate checks', v.communicate?.map((c) => c.met), expected.communicate);
      if (expected.hashes && v.db) say('the database hashes', [v.db.goldHash, v.db.predictedHash, v.db.goldUserHash, v.db.predictedUserHash], expected.hashes);
    }
    expect(disagreements).toEqual([]);
  });

  // python3 is installed by .ci/run; on a developer's machine without it the test says so.
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python && !process.env.CI)("agrees with criteria.py, our Python port of τ²'s criteria (skipped only where python3 is missing, never in CI)", () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'tau2-criteria-'));
    try {
      const file = path.join(dir, 'cases.json');
      writeFileSync(file, casesAsPythonJson(cases));
      const run = spawnSync('python3', [path.join(FIXTURES, 'criteria.py'), file, path.resolve(import.meta.dirname)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const verdicts = JSON.parse(run.stdout) as { id: string; reward: number | null; criteria: Record<string, number | null>; hashes: (string | null)[] | null }[];
      const byId = new Map(cases.map((c) => [c.id, c]));
      const disagreements: string[] = [];
      let compared = 0;
      for (const p of verdicts) {
        const v = byId.get(p.id)!.verdict;
        if (p.reward !== null && p.reward !== v.reward) disagreements.push(`${p.id}: reward ${v.reward}, criteria.py ${p.reward}`);
        for (const [criterion, reward] of Object.entries(p.criteria)) {
          if (reward === null) continue;
          compared += 1;
          const ours = v.criteria.find((c) => c.criterion === criterion)?.reward;
          if (ours !== reward) disagreements.push(`${p.id}: ${criterion} ${ours}, criteria.py ${reward}`);
        }
        if (p.hashes && v.db) {
          const ours = [v.db.goldHash, v.db.predictedHash, v.db.goldUserHash, v.db.predictedUserHash];
          if (JSON.stringify(ours) !== JSON.stringify(p.hashes)) disagreements.push(`${p.id}: hashes ${ours.join(' ')}, criteria.py ${p.hashes.join(' ')}`);
        }
      }
      expect(disagreements).toEqual([]);
      expect(compared).toBeGreaterThan(1000);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
