// `eval merge` refuses what it cannot be (issue 31, item 5): a header's part numbers outside the
// bounds --shard enforces (1,000,000,000 parts built an array of a billion; 2**32 crashed
// uncaught), and --report or --csv aimed at one of its inputs or at a file already there.

import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, runCli } from '../e2e/fixtures/cliHarness.ts';
import { resultsHeader, resultsPlan, writeResultsFile } from '../e2e/fixtures/resultsFiles.ts';

const dir = makeTempDir();
const file = (name: string) => join(dir, name);
const plan = resultsPlan(['orchestrator']);

describe('orchestra eval merge', () => {
  it('refuses a header that claims more parts than --shard allows, or a part past its count, with a clear error and no crash', async () => {
    const good = writeResultsFile(file('good.jsonl'), resultsHeader(['a', 'b'], { shard: { index: 0, count: 2 } }), plan);
    // Each bad header with a part of the same count beside it (as the red team's files were: with
    // the same count, merge listed every part of it), or with a good part.
    const cases: Array<[string, unknown, unknown, string]> = [
      ['billion', { index: 0, count: 1_000_000_000 }, { index: 1, count: 1_000_000_000 }, 'it claims to be a part of 1,000,000,000; the number of parts is from 1 to 10,000, as --shard allows'],
      ['two-to-32', { index: 0, count: 2 ** 32 }, { index: 1, count: 2 ** 32 }, 'it claims to be a part of 4,294,967,296; the number of parts is from 1 to 10,000, as --shard allows'],
      ['past', { index: 7, count: 3 }, null, 'it claims to be part 7 of 3; parts are counted from 0 to 2'],
      ['fraction', { index: 0.5, count: 2 }, null, 'it claims to be part 0.5 of 2; parts are counted from 0 to 1'],
    ];
    for (const [name, shard, beside, reason] of cases) {
      const bad = writeResultsFile(file(`${name}.jsonl`), resultsHeader(['a', 'b'], { shard }), plan);
      const other = beside === null ? good : writeResultsFile(file(`${name}-beside.jsonl`), resultsHeader(['a', 'b'], { shard: beside }), plan, []);
      const started = performance.now();
      const result = await runCli(['eval', 'merge', bad, other, '--out', file(`${name}-all.jsonl`)]);
      expect(result.code, name).toBe(2);
      expect(result.stderr, name).toContain(`orchestra: "${bad}" cannot be used: its header is none "orchestra eval" writes (${reason}).`);
      expect(result.stderr, name).not.toContain('    at ');
      expect(performance.now() - started, name).toBeLessThan(20_000);
    }
    // The parts of 10,000, the most --shard allows, merge (9,999 of them named missing).
    const wide = writeResultsFile(file('wide.jsonl'), resultsHeader(['a'], { shard: { index: 9_999, count: 10_000 } }), plan);
    const merged = await runCli(['eval', 'merge', wide, '--out', file('wide-all.jsonl')]);
    expect(merged.code).toBe(0);
    expect(merged.stderr).toContain('Missing: parts 0/10000, 1/10000, 2/10000,');
    expect(merged.stderr).toContain('19/10000 and 9,979 more; the report covers the parts given.');
  }, 120_000);

  it('never writes --report or --csv over an input, nor over a file already there without --force', async () => {
    const a = writeResultsFile(file('part-a.jsonl'), resultsHeader(['a', 'b'], { shard: { index: 0, count: 2 } }), plan);
    const b = writeResultsFile(file('part-b.jsonl'), resultsHeader(['a', 'b'], { shard: { index: 1, count: 2 } }), plan, []);
    const before = readFileSync(a, 'utf8');
    const merge = (out: string, ...more: string[]) => runCli(['eval', 'merge', a, b, '--out', file(out), ...more]);

    const ontoInput = await merge('x1.jsonl', '--report', a, '--force');
    expect(ontoInput.code).toBe(2);
    expect(ontoInput.stderr).toContain(`--report "${a}" is "${a}", which this command reads: write the report to another file.`);
    symlinkSync(b, file('link-to-b.jsonl'));
    const throughLink = await merge('x2.jsonl', '--csv', file('link-to-b.jsonl'), '--force');
    expect(throughLink.code).toBe(2);
    expect(throughLink.stderr).toContain(`which this command reads`);
    const ontoOut = await merge('x3.jsonl', '--csv', file('x3.jsonl'));
    expect(ontoOut.code).toBe(2);

    writeFileSync(file('notes.txt'), 'my notes\n');
    const existing = await merge('x4.jsonl', '--report', file('notes.txt'));
    expect(existing.code).toBe(2);
    expect(existing.stderr).toContain(`--report "${file('notes.txt')}" already exists: give a new file, or add --force to replace it.`);
    expect(readFileSync(file('notes.txt'), 'utf8')).toBe('my notes\n');
    expect(readFileSync(a, 'utf8')).toBe(before);

    const fresh = await merge('x5.jsonl', '--report', file('report.json'), '--csv', file('table.csv'));
    expect(fresh.code).toBe(0);
    expect(JSON.parse(readFileSync(file('report.json'), 'utf8'))).toMatchObject({ type: 'eval_summary' });
    const forced = await merge('x6.jsonl', '--report', file('notes.txt'), '--force');
    expect(forced.code).toBe(0);
    expect(readFileSync(file('notes.txt'), 'utf8')).toContain('"eval_summary"');
  }, 120_000);
});
