// A tool result's `detail` is `unknown` on the wire: the paper protocol's search, code and answer
// runners and the function-calling tools each put their own shape there. This reads it by shape
// (never trusting it) into what the trace knows how to show.

export interface DocumentHit {
  id: string;
  title: string;
  text: string;
  score: number | null;
  /** The search source that found it ('local', 'documents', 'wikipedia'), when the search says. */
  source?: string;
}

/** A search source that failed while the others answered. */
export interface SourceProblem {
  source: string;
  message: string;
}

export type ResultDetail =
  | { kind: 'documents'; query: string; documents: DocumentHit[]; added: number | null; problems?: SourceProblem[] }
  | {
      kind: 'code';
      code: string;
      stdout: string;
      stderr: string;
      error: string | null;
      timedOut: boolean;
      truncated: boolean;
      durationMs: number | null;
    }
  | { kind: 'answer'; answer: string; raw: string }
  /** An expert wrote nothing usable (no query, no code): what it wrote instead. */
  | { kind: 'unusable'; wanted: 'query' | 'code'; raw: string }
  /** A domain tool's call (workers/domains/): the rows it inserted, changed or deleted. */
  | { kind: 'domain'; tool: string; changes: RowDiff[]; more: number; result: string | null; error: string | null }
  | { kind: 'json'; text: string }
  | { kind: 'none' };

/** One row a domain tool call touched: each changed field's value before and after, as JSON text. */
export interface RowDiff {
  table: string;
  id: string;
  op: 'insert' | 'update' | 'delete';
  fields: Array<{ name: string; before: string; after: string }>;
}

/** Rows and fields shown per call; a call that touched more says how many are left out. */
const DIFF_ROWS = 50;
const DIFF_FIELDS = 40;
const DIFF_VALUE_CHARS = 200;


type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function readDocument(value: unknown, index: number): DocumentHit | null {
  if (!isFields(value)) return null;
  const title = text(value.title);
  const body = text(value.text);
  if (!title && !body) return null;
  return {
    id: typeof value.id === 'string' || typeof value.id === 'number' ? String(value.id) : `doc-${index}`,
    title: title || '(untitled)',
    text: body,
    score: typeof value.score === 'number' && Number.isFinite(value.score) ? value.score : null,
    ...(typeof value.source === 'string' && value.source ? { source: value.source } : {}),
  };
}

function readProblem(value: unknown): SourceProblem | null {
  if (!isFields(value) || typeof value.source !== 'string' || typeof value.message !== 'string') return null;
  return { source: value.source, message: value.message };
}

function valueText(row: Fields | null, field: string): string {
  if (!row || !Object.hasOwn(row, field)) return '—';
  const json = JSON.stringify(row[field]) ?? '—';
  return json.length > DIFF_VALUE_CHARS ? `${json.slice(0, DIFF_VALUE_CHARS)}…` : json;
}

function readRowDiff(value: unknown): RowDiff | null {
  if (!isFields(value) || typeof value.table !== 'string' || typeof value.id !== 'string') return null;
  const op = value.op === 'insert' || value.op === 'delete' ? value.op : 'update';
  const before = isFields(value.before) ? value.before : null;
  const after = isFields(value.after) ? value.after : null;
  const names = Array.isArray(value.fields) ? value.fields.filter((name): name is string => typeof name === 'string') : [];
  return {
    table: value.table,
    id: value.id,
    op,
    fields: names.slice(0, DIFF_FIELDS).map((name) => ({ name, before: valueText(before, name), after: valueText(after, name) })),
  };
}

function readDomain(detail: Fields, changes: unknown[]): ResultDetail {
  const rows = changes.slice(0, DIFF_ROWS).map(readRowDiff).filter((row): row is RowDiff => row !== null);
  return {
    kind: 'domain',
    tool: text(detail.tool),
    changes: rows,
    more: Math.max(0, changes.length - DIFF_ROWS),
    result: detail.result === undefined ? null : (JSON.stringify(detail.result, null, 2) ?? null),
    error: typeof detail.error === 'string' && detail.error ? detail.error : null,
  };
}

/** `argumentCode` is the call's own `code` argument, for tools that get code from the model. */
export function readDetail(detail: unknown, argumentCode?: unknown): ResultDetail {
  if (detail === undefined || detail === null) return { kind: 'none' };
  if (!isFields(detail)) return { kind: 'json', text: JSON.stringify(detail, null, 2) ?? String(detail) };
  if (detail.kind === 'domain' && Array.isArray(detail.changes)) return readDomain(detail, detail.changes);

  if (Array.isArray(detail.documents)) {
    const documents = detail.documents.map(readDocument).filter((doc): doc is DocumentHit => doc !== null);
    return {
      kind: 'documents',
      query: text(detail.query),
      documents,
      added: typeof detail.added === 'number' ? detail.added : null,
      ...(Array.isArray(detail.problems)
        ? { problems: detail.problems.map(readProblem).filter((problem): problem is SourceProblem => problem !== null) }
        : {}),
    };
  }
  if (typeof detail.stdout === 'string') {
    return {
      kind: 'code',
      code: text(detail.code) || text(argumentCode),
      stdout: detail.stdout,
      stderr: text(detail.stderr),
      error: typeof detail.error === 'string' && detail.error ? detail.error : null,
      timedOut: detail.timedOut === true,
      truncated: detail.truncated === true,
      durationMs: typeof detail.durationMs === 'number' ? detail.durationMs : null,
    };
  }
  if (typeof detail.answer === 'string') return { kind: 'answer', answer: detail.answer, raw: text(detail.raw) };
  if (typeof detail.raw === 'string' && ('query' in detail || 'code' in detail)) {
    return { kind: 'unusable', wanted: 'query' in detail ? 'query' : 'code', raw: detail.raw };
  }
  return { kind: 'json', text: JSON.stringify(detail, null, 2) };
}
