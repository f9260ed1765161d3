// The rows of a τ² database that one tool call inserted, changed or deleted, in the shape the
// trace shows for every domain (database.ts's RowChange). A database's tables are its fields that
// hold rows: dicts of rows by id (retail, ToolScale) or lists of rows with an `…_id` field
// (telecom). Rows the seed shares with every rollout are never written in place (a tool takes its
// own copy first: tableSeed.ts, retail/tools.ts), so an unchanged reference means an unchanged
// row and only the rollout's own rows are dumped before a call. Pure TypeScript.

import type { JsonValue } from '../../engine/ports.ts';
import type { Row, RowChange } from '../database.ts';
import { changedFields } from '../database.ts';
import type { DomainToolDetail } from '../environment.ts';
import type { Tau2Environment } from './environment.ts';
import type { Tau2ToolCall, ToolMessage } from './messages.ts';
import { pyJsonDumps, toPlainJson } from './pyJson.ts';
import { isModel, type PyValue } from './pyValues.ts';
import type { Toolkit } from './toolkit.ts';

interface Entry {
  row: PyValue;
  /** A row of this rollout's own (not the seed's): its dump and plain form before the call. */
  own?: { dump: string; plain: Row };
}

/** The database's rows before a call: table → id → row. */
export type RowsSnapshot = Map<string, Map<string, Entry>>;

/** A list row's id: its first `…_id` field (telecom's customer_id, line_id…), else its place. */
function listRowId(row: PyValue, index: number): string {
  if (isModel(row)) {
    const key = Object.keys(row).find((name) => name.endsWith('_id'));
    const id = key === undefined ? undefined : row[key];
    if (typeof id === 'string' || typeof id === 'number') return String(id);
  }
  return `#${index}`;
}

function tables(db: PyValue): Array<[string, Array<[string, PyValue]>]> {
  if (!isModel(db)) return [];
  const found: Array<[string, Array<[string, PyValue]>]> = [];
  for (const [name, value] of Object.entries(db)) {
    if (value instanceof Map) found.push([name, [...value.entries()]]);
    else if (Array.isArray(value)) found.push([name, value.map((row, i) => [listRowId(row, i), row])]);
  }
  return found;
}

function plainRow(row: PyValue): Row {
  const plain = toPlainJson(row);
  return (typeof plain === 'object' && plain !== null && !Array.isArray(plain) ? plain : { value: plain }) as Row;
}

const dumpOf = (toolkit: Toolkit, row: PyValue): string =>
  (typeof row === 'object' && row !== null ? toolkit.knownDump(row) : undefined) ?? pyJsonDumps(row, { sortKeys: true });

const isSeedRow = (toolkit: Toolkit, row: PyValue): boolean => typeof row === 'object' && row !== null && toolkit.sharedRow(row);

export function snapshotRows(toolkit: Toolkit): RowsSnapshot {
  const snapshot: RowsSnapshot = new Map();
  for (const [table, rows] of tables(toolkit.db)) {
    const entries = new Map<string, Entry>();
    for (const [id, row] of rows) {
      entries.set(id, isSeedRow(toolkit, row) ? { row } : { row, own: { dump: dumpOf(toolkit, row), plain: plainRow(row) } });
    }
    snapshot.set(table, entries);
  }
  return snapshot;
}

/** What changed since `before`, table by table, rows in id order. */
export function changedRows(before: RowsSnapshot, toolkit: Toolkit): RowChange[] {
  const changes: RowChange[] = [];
  const change = (table: string, id: string, was: Row | null, now: Row | null) =>
    changes.push({ table, id, op: was === null ? 'insert' : now === null ? 'delete' : 'update', before: was, after: now, fields: changedFields(was, now) });
  const seen = new Set<string>();
  for (const [table, rows] of tables(toolkit.db)) {
    seen.add(table);
    const old = before.get(table) ?? new Map<string, Entry>();
    const ids = new Set<string>();
    for (const [id, row] of [...rows].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      ids.add(id);
      const entry = old.get(id);
      if (!entry) {
        change(table, id, null, plainRow(row));
        continue;
      }
      // A seed row still in place was not written.
      if (entry.row === row && !entry.own) continue;
      const wasDump = entry.own?.dump ?? dumpOf(toolkit, entry.row);
      if (wasDump !== dumpOf(toolkit, row)) change(table, id, entry.own?.plain ?? plainRow(entry.row), plainRow(row));
    }
    for (const [id, entry] of old) if (!ids.has(id)) change(table, id, entry.own?.plain ?? plainRow(entry.row), null);
  }
  for (const [table, old] of before) {
    if (seen.has(table)) continue;
    for (const [id, entry] of old) change(table, id, entry.own?.plain ?? plainRow(entry.row), null);
  }
  return changes;
}

function resultOf(content: string): JsonValue {
  try {
    return JSON.parse(content) as JsonValue;
  } catch {
    return content;
  }
}

/** An agent's call answered as τ² answers it (`get_response`), with what the trace shows of it:
 * the rows it changed, and its result or error. `domain` names the domain in the detail. */
export function respondWithChanges(environment: Tau2Environment, call: Tau2ToolCall, domain: string): { message: ToolMessage; detail: DomainToolDetail } {
  const before = snapshotRows(environment.tools);
  const message = environment.getResponse(call);
  const content = message.content ?? '';
  const detail: DomainToolDetail = {
    kind: 'domain',
    domain,
    tool: call.name,
    changes: changedRows(before, environment.tools),
    ...(message.error ? { error: content } : { result: resultOf(content) }),
  };
  return { message, detail };
}
