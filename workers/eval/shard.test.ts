import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShard, ShardError, shardOfTask, tasksOfShard } from './shard.ts';

const tasks = (ids: readonly string[]) => ids.map((id) => ({ id }));

describe('parseShard', () => {
  it('reads part i of n, counted from 0 as JOB_COMPLETION_INDEX is', () => {
    expect(parseShard('0/3')).toEqual({ index: 0, count: 3 });
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(parseShard(' 7 / 8 ')).toEqual({ index: 7, count: 8 });
    expect(parseShard('0/1')).toEqual({ index: 0, count: 1 });
  });

  it('says what is wrong, and how parts are counted', () => {
    expect(() => parseShard('3/3')).toThrow('--shard 3/3: parts are counted from 0, so the parts of 3 are 0/3 … 2/3 (as Kubernetes counts JOB_COMPLETION_INDEX).');
    expect(() => parseShard('1/1')).toThrow(/the parts of 1 are 0\/1 /);
    expect(() => parseShard('0/0')).toThrow(/from 1 to 10,000/);
    expect(() => parseShard('/8')).toThrow(ShardError);
    expect(() => parseShard('-1/8')).toThrow(/must be "i\/n"/);
    expect(() => parseShard('1.5/8')).toThrow(/must be "i\/n"/);
    expect(() => parseShard('2')).toThrow(/\$JOB_COMPLETION_INDEX\/4/);
  });
});

describe('tasksOfShard', () => {
  const ids = Array.from({ length: 600 }, (_, i) => `task-${i}`);

  it('splits a suite into disjoint parts that together are the suite, each in the suite order', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 20 }), { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (list, count) => {
        const parts = Array.from({ length: count }, (_, index) => tasksOfShard(tasks(list), { index, count }).map((task) => task.id));
        const joined = parts.flat();
        expect(joined.length).toBe(list.length);
        expect(new Set(joined)).toEqual(new Set(list));
        for (const part of parts) expect(part).toEqual(list.filter((id) => part.includes(id)));
      }),
    );
  });

  it('places a task by its id alone: adding, removing or reordering tasks moves no other', () => {
    const before = new Map(ids.map((id) => [id, shardOfTask(id, 8)]));
    const changed = ['new-task', ...ids.slice(100).reverse()];
    for (const id of changed) if (before.has(id)) expect(shardOfTask(id, 8)).toBe(before.get(id));
    const part = tasksOfShard(tasks(changed), { index: 3, count: 8 }).map((task) => task.id);
    expect(part.filter((id) => id !== 'new-task')).toEqual(changed.filter((id) => before.get(id) === 3));
  });

  it('spreads tasks about evenly (a hash, so not exactly)', () => {
    const sizes = Array.from({ length: 8 }, (_, index) => tasksOfShard(tasks(ids), { index, count: 8 }).length);
    // 600 tasks over 8 parts: 75 each on average.
    for (const size of sizes) expect(size).toBeGreaterThan(50);
    for (const size of sizes) expect(size).toBeLessThan(100);
  });
});
