// A suite split across machines: `orchestra eval --shard i/n` runs the tasks whose id hashes to
// part i of n. The part is a function of the task's id alone (not of its position), so the n parts
// are disjoint and together the whole suite, and adding or removing a task moves only that task.
// Parts are numbered from 0, as Kubernetes numbers an Indexed Job's pods (JOB_COMPLETION_INDEX).

import { hashText } from './policies/random/random.ts';

export interface Shard {
  /** 0-based: 0 … count − 1. */
  index: number;
  count: number;
}

export const MAX_SHARDS = 10_000;

export class ShardError extends Error {
  override name = 'ShardError';
}

export const formatShard = (shard: Shard): string => `${shard.index}/${shard.count}`;

/** Reads "i/n" (0 ≤ i < n): part i of n. */
export function parseShard(text: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  if (!match) throw new ShardError(`--shard must be "i/n", part i of n counted from 0 (such as 0/4 … 3/4, or $JOB_COMPLETION_INDEX/4); got "${text}".`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ShardError(`--shard ${text}: the number of parts must be from 1 to ${MAX_SHARDS.toLocaleString('en-US')}.`);
  if (index >= count) {
    const last = count === 1 ? '0/1' : `0/${count} … ${count - 1}/${count}`;
    throw new ShardError(`--shard ${text}: parts are counted from 0, so the parts of ${count} are ${last} (as Kubernetes counts JOB_COMPLETION_INDEX).`);
  }
  return { index, count };
}

const shownNumber = (value: unknown): string => (typeof value === 'number' ? value.toLocaleString('en-US') : JSON.stringify(value) ?? String(value));

/** Why a results file's `shard` is no part `--shard` could have named (the same bounds), or null:
 * a header claiming 1,000,000,000 parts built an array of them; 2**32 crashed. */
export function shardValueProblem(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return `its part is ${shownNumber(value)}, not {"index": i, "count": n}`;
  const { index, count } = value as { index?: unknown; count?: unknown };
  if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > MAX_SHARDS) {
    return `it claims to be a part of ${shownNumber(count)}; the number of parts is from 1 to ${MAX_SHARDS.toLocaleString('en-US')}, as --shard allows`;
  }
  if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= (count as number)) {
    return `it claims to be part ${shownNumber(index)} of ${shownNumber(count)}; parts are counted from 0 to ${shownNumber((count as number) - 1)}`;
  }
  return null;
}

/** The part of `count` that the task with this id belongs to. */
export function shardOfTask(taskId: string, count: number): number {
  return Number.parseInt(hashText(taskId).slice(0, 8), 16) % count;
}

/** The tasks of one part, in the suite's order. */
export function tasksOfShard<T extends { id: string }>(tasks: readonly T[], shard: Shard): T[] {
  return tasks.filter((task) => shardOfTask(task.id, shard.count) === shard.index);
}

export const sameShard = (a: Shard | undefined, b: Shard | undefined): boolean => a?.index === b?.index && a?.count === b?.count;
