// A domain's database in memory: tables of rows keyed by id, as JSON. How a task's database is
// compared with its golden state (tau2-bench's way), and how a change is described row by row.
// Pure TypeScript.

import type { JsonValue } from '../engine/ports.ts';

/** A row: any JSON object. */
export type Row = { [field: string]: JsonValue };
/** Tables by name, each holding rows by id. */
export type Database = { [table: string]: { [id: string]: Row } };

/** One row a tool call inserted, changed or deleted, as the trace shows it. */
export interface RowChange {
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  /** The row before the call; null for an insert. */
  before: Row | null;
  /** The row after the call; null for a delete. */
  after: Row | null;
  /** The fields whose values differ (every field of an inserted or deleted row). */
  fields: string[];
}

/** Names that would reach an object's prototype if used as a key: never a table or row id. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

export function isSafeKey(key: string): boolean {
  return key.length > 0 && key.length <= 200 && !FORBIDDEN_KEYS.has(key);
}

/**
 * JSON with every object's keys sorted, so that two equal values print the same whatever order
 * their keys were written in. tau2-bench compares databases the same way: a hash of
 * `json.dumps(db.model_dump(), sort_keys=True)` (tau2/utils/utils.py, `get_dict_hash`).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks that a parsed value is a database (an object of tables, each an object of row objects),
 * and returns the problems in words. */
export function databaseProblems(value: unknown): string[] {
  if (!isObject(value)) return ['must be an object of tables: {"orders": {"O-1001": {…}}, …}'];
  const problems: string[] = [];
  for (const [table, rows] of Object.entries(value)) {
    if (!isSafeKey(table)) problems.push(`"${table}" cannot be a table's name`);
    else if (!isObject(rows)) problems.push(`table "${table}" must be an object of rows by id`);
    else {
      for (const [id, row] of Object.entries(rows)) {
        if (!isSafeKey(id)) problems.push(`table "${table}": "${id}" cannot be a row id`);
        else if (!isObject(row)) problems.push(`table "${table}", row "${id}": must be an object`);
      }
    }
    if (problems.length >= 10) break;
  }
  return problems;
}

/** A deep copy (the seed stays untouched by every task that runs on it). */
export function copyDatabase(db: Database): Database {
  return JSON.parse(JSON.stringify(db)) as Database;
}

/** The top-level fields where two rows differ, sorted. */
export function changedFields(before: Row | null, after: Row | null): string[] {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  return [...keys].filter((key) => canonicalJson(before?.[key]) !== canonicalJson(after?.[key])).sort();
}

export interface RowDifference {
  table: string;
  id: string;
  /** The row in the first database (the run's); null when it is not there. */
  actual: Row | null;
  /** The row in the second (the golden one); null when it should not be there. */
  expected: Row | null;
  fields: string[];
}

/** Every row where `actual` and `expected` differ, table by table, in sorted order. */
export function compareDatabases(actual: Database, expected: Database): RowDifference[] {
  const differences: RowDifference[] = [];
  const tables = [...new Set([...Object.keys(actual), ...Object.keys(expected)])].sort();
  for (const table of tables) {
    const mine = actual[table] ?? {};
    const theirs = expected[table] ?? {};
    const ids = [...new Set([...Object.keys(mine), ...Object.keys(theirs)])].sort();
    for (const id of ids) {
      const a = Object.hasOwn(mine, id) ? (mine[id] ?? null) : null;
      const e = Object.hasOwn(theirs, id) ? (theirs[id] ?? null) : null;
      if (canonicalJson(a) === canonicalJson(e)) continue;
      differences.push({ table, id, actual: a, expected: e, fields: a && e ? changedFields(a, e) : [] });
    }
  }
  return differences;
}

/** How many rows differ between the seed and a database (what the golden run changed). */
export function countChangedRows(seed: Database, db: Database): number {
  return compareDatabases(db, seed).length;
}
