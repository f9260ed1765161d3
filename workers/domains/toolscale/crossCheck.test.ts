// ToolScale's ported tools against τ²-Bench's own Python: every call listed in
// e2e/fixtures/toolscale/calls.json, made in order in one environment, must return the text τ²
// returned (byte for byte, errors included) and leave the database with τ²'s hash; each of our
// example tasks' golden actions must run without error to τ²'s final hash. The expected values
// were recorded by e2e/fixtures/toolscale/reference_toolscale.py from the vendored Python.

import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parsePyJson } from '../tau2/pyJson.ts';
import type { PyValue } from '../tau2/pyValues.ts';
import { parseTasks } from '../tau2/tasks.ts';
import { TOOLSCALE_DOMAIN_NAMES, toolScaleEnvironments, type ToolScaleDomainName } from './domains.ts';

const REFERENCE = path.resolve(import.meta.dirname, '../../../e2e/fixtures/toolscale/reference');
/** The reference script's clock for bank (FIXED_NOW). */
export const FIXED_NOW = () => new Date('2025-01-15T12:00:00Z');

type Recorded = Map<string, PyValue>;

export function loadDomain(name: ToolScaleDomainName) {
  const read = (file: string) => readFileSync(path.join(import.meta.dirname, name, file), 'utf8');
  return {
    newEnvironment: toolScaleEnvironments(name, read('db.json'), read('policy.md'), { now: FIXED_NOW }),
    tasks: parseTasks(read('tasks.json'), `${name}/tasks.json`),
  };
}

/** What the fixture recorded of a text: the text, or its digest for a long one. */
function sameText(actual: string, recorded: Recorded): boolean {
  if (recorded.has('content')) return actual === recorded.get('content');
  return createHash('sha256').update(actual).digest('hex') === recorded.get('content_sha256');
}

describe.each(TOOLSCALE_DOMAIN_NAMES.filter((name) => existsSync(path.join(REFERENCE, `${name}.json`))))('%s', (name) => {
  const reference = parsePyJson(readFileSync(path.join(REFERENCE, `${name}.json`), 'utf8')) as Recorded;
  const domain = loadDomain(name);

  it("answers every recorded call with τ²'s text and leaves τ²'s database hash after each", async () => {
    const env = domain.newEnvironment();
    expect(await env.dbHash()).toBe(reference.get('initial_hash'));
    const problems: string[] = [];
    const calls = reference.get('calls') as Recorded[];
    for (const [i, call] of calls.entries()) {
      if (call.get('name') === '__update_db__') {
        env.updateDb('assistant', call.get('arguments') as Recorded);
        if ((await env.dbHash()) !== call.get('hash')) problems.push(`call ${i} __update_db__: the database hash differs from τ²'s after it`);
        continue;
      }
      const message = env.getResponse({ id: String(i), name: call.get('name') as string, arguments: call.get('arguments') as Recorded, requestor: 'assistant' });
      const where = `call ${i} ${call.get('name') as string}`;
      if (!sameText(message.content ?? '', call)) problems.push(`${where} returned\n${message.content}\nwhere τ² returned\n${(call.get('content') ?? call.get('content_head')) as string}`);
      if (message.error !== call.get('error')) problems.push(`${where}: error ${message.error}, τ² ${call.get('error') as boolean}`);
      if ((await env.dbHash()) !== call.get('hash')) problems.push(`${where}: the database hash differs from τ²'s after it`);
    }
    expect(problems).toEqual([]);
    expect(calls.filter((c) => c.get('error') === true).length).toBeGreaterThan(0);
  });

  it("runs each example task's golden actions without error to τ²'s final database", async () => {
    const recorded = new Map((reference.get('tasks') as Recorded[]).map((t) => [t.get('id') as string, t]));
    expect(domain.tasks.length).toBeGreaterThanOrEqual(3);
    const initial = await domain.newEnvironment().dbHash();
    for (const task of domain.tasks) {
      const env = domain.newEnvironment();
      for (const action of task.evaluationCriteria!.actions!) env.makeToolCall(action.name, action.requestor, action.arguments);
      const hash = await env.dbHash();
      expect(hash, task.id).not.toBe(initial);
      expect(hash, task.id).toBe(recorded.get(task.id)?.get('hash'));
      expect(recorded.get(task.id)?.get('errors'), task.id).toEqual([]);
    }
  });
});
