// A τ² database made of tables (dicts of rows by id), parsed once and shared by every rollout:
// a rollout forks it (the tables copied, the rows shared) and takes its own copy of a row before a
// tool writes to it or to anything inside it. Hashing a rollout's database re-dumps only the rows
// it changed: the seed keeps the sorted-key dump of each of its rows. Retail's seed
// (retail/tools.ts) is one, over its three tables. Pure TypeScript.

import { deepCopy } from './model.ts';
import { valueError } from './pyErrors.ts';
import { pyJsonDumps } from './pyJson.ts';
import { lookup } from './pyOps.ts';
import { pyStr, type PyModel, type PyValue } from './pyValues.ts';
import { Toolkit } from './toolkit.ts';

/** A database whose fields are all tables: `Dict[str, Row]`, as Maps in the model's dump form. */
export type Tables = { [table: string]: Map<string, PyValue> };

export class TableSeed<Db extends Tables> {
  readonly #rows = new WeakSet<object>();
  readonly #dumps = new WeakMap<object, string>();

  constructor(readonly db: Db) {
    for (const table of Object.values(db)) {
      for (const row of table.values()) if (row !== null && typeof row === 'object') this.#rows.add(row);
    }
  }

  /** A new rollout's database: each table copied, every row shared until owned. */
  fork(): Db {
    return Object.fromEntries(Object.entries(this.db).map(([name, table]) => [name, new Map(table)])) as Db;
  }

  has(row: object): boolean {
    return this.#rows.has(row);
  }

  /** The sorted-key dump of one of the seed's rows (made on first use); undefined for any other. */
  dumpOf(row: object): string | undefined {
    if (!this.#rows.has(row)) return undefined;
    let text = this.#dumps.get(row);
    if (text === undefined) {
      text = pyJsonDumps(row as PyModel, { sortKeys: true });
      this.#dumps.set(row, text);
    }
    return text;
  }
}

/** A toolkit over a forked TableSeed. */
export abstract class TableToolkit<Db extends Tables> extends Toolkit<Db & PyModel> {
  readonly #owned = new WeakSet<object>();

  constructor(readonly seed: TableSeed<Db>) {
    super(seed.fork() as Db & PyModel);
  }

  override knownDump(row: object): string | undefined {
    return this.seed.dumpOf(row);
  }

  override sharedRow(row: object): boolean {
    return this.seed.has(row);
  }

  /** `self.db.<table>[id]`, or `ValueError(message)` where the id is not in the table. */
  row<T>(table: keyof Db & string, id: PyValue, message: string): T {
    const found = lookup(this.db[table] as Map<string, PyValue>, id);
    if (found === undefined) throw valueError(message);
    return found as T;
  }

  /** A lookup of `table`'s rows, as each domain's `_get_<row>` helper: the row by id, or
   * `ValueError(message)` with `{id}` in it replaced by the id as Python prints it. */
  protected rowsOf<T>(table: keyof Db & string, message: string): (id: PyValue) => T {
    return (id) => this.row<T>(table, id, message.replace('{id}', () => pyStr(id)));
  }

  /** `db.<table>[id]` (which must exist), copied into this rollout first if it still is the
   * seed's. Call it before writing to the row or to anything inside it, and use what it returns. */
  own<T>(table: keyof Db & string, id: string): T {
    const rows = this.db[table] as Map<string, PyValue>;
    const row = rows.get(id);
    if (row === undefined) throw new Error(`own(): no row ${id} in ${table}`);
    if (row === null || typeof row !== 'object' || this.#owned.has(row)) return row as T;
    const copy = deepCopy(row);
    this.#owned.add(copy as object);
    rows.set(id, copy);
    return copy as T;
  }

  /** A row this rollout added (a new booking, a new prescription): it is already its own. */
  adopt<T extends object>(table: keyof Db & string, id: string, row: T): T {
    this.#owned.add(row);
    (this.db[table] as Map<string, PyValue>).set(id, row as PyValue);
    return row;
  }
}
