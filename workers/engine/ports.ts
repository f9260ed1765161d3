// The engine's ports: what it needs from the outside (a Python sandbox, a JavaScript sandbox, a
// calculator, a search), as interfaces the tools implement. The engine imports nothing from tools/ or backends/
// (`npm run lint` holds it to that); the composition root (workers/hosts/prepareRun.ts) plugs the
// implementations in.

import type { ParsedCall } from './events.ts';
import type { ChatMessage } from './types.ts';
import type { TurnContext } from './protocol.ts';

/* ---- The other side of a conversation (τ²'s simulated user) ---- */

/** What the conversation's other side says next: messages the agent's history gains (the
 * agent's own greeting, the user's reply), or the end of the conversation. */
export type PartnerReply = { kind: 'say'; messages: ChatMessage[] } | { kind: 'end'; reason: string };

/**
 * The user of a multi-turn conversation (workers/domains/tau2/rollout.ts implements it for τ²):
 * the function-calling protocol opens with it instead of the task, hands it every message the
 * agent writes to the user, and tells it the agent's tool calls before they run, so that it
 * records the conversation as the benchmark grades it. Its model calls go through the turn's
 * context (ledger kind `user`), each of its turns leaves a `user_turn` event.
 */
export interface ConversationPartner {
  open(context: TurnContext): Promise<PartnerReply>;
  /** The agent's message to the user; the user's reply, or the end. */
  answer(message: string, context: TurnContext): Promise<PartnerReply>;
  /** The agent's turn of tool calls (domain tools only), before any runs. */
  agentCalls(content: string, calls: readonly ParsedCall[]): void;
  /** Why the conversation has ended on its own (a step or error limit), or null. */
  ended(): string | null;
}

/* ---- Python (behind the paper's enhance_reasoning) ---- */

/** Runs self-contained Python code with a hard time limit; behind the `enhance_reasoning` tool. */
export interface PythonRunner {
  run(code: string, options: PythonRunOptions): Promise<PythonRunResult>;
  /** Stops the interpreter; a later `run` starts a fresh one. */
  dispose(): Promise<void>;
}

export interface PythonRunOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface PythonRunResult {
  stdout: string;
  stderr: string;
  /** The last lines of the Python traceback, or null when the code finished without an exception. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  /** How long the code ran (from when the interpreter took it). */
  durationMs: number;
  /** How long this run first waited for the interpreter to start (Pyodide takes seconds);
   * 0 or absent when it was already running. Not part of `durationMs`. */
  startupMs?: number;
  /** True when stdout or stderr went past the output cap and was cut. */
  truncated: boolean;
}

/* ---- Search (behind the paper's search) ---- */

export interface RetrievedDocument {
  id: string;
  title: string;
  text: string;
  /** The source's own relevance score (BM25 here); NaN from a source that ranks without one (Wikipedia). */
  score: number;
  /** Which search source found it ('local', 'documents', 'wikipedia'), set by a combined retriever. */
  source?: string;
}

/** A source of a combined search that failed while the others answered. */
export interface SourceFailure {
  source: string;
  message: string;
}

export interface RetrieverSearchOptions {
  /** Most documents returned; 10 unless given. */
  limit?: number;
  signal?: AbortSignal;
  /** Told about each source that failed when the others still answered (a combined retriever). */
  onSourceFailure?(failure: SourceFailure): void;
}

export interface Retriever {
  search(query: string, options?: RetrieverSearchOptions): Promise<RetrievedDocument[]>;
}

/* ---- JavaScript (behind run_javascript, custom tools, domain tools and js checks) ---- */

/** A value JSON can carry: what the sandbox returns and what guest code receives as `args`. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Runs untrusted JavaScript in QuickJS with hard limits; behind the `run_javascript` tool and
 * user-written tools (which read their call's `input` as `args` and return a value). */
export interface JavaScriptRunner {
  run(code: string, options: JsRunOptions): Promise<JsRunResult>;
  /** Stops the sandbox; a later `run` starts a fresh one. */
  dispose(): void;
}

export interface JsRunOptions {
  timeoutMs: number;
  /** The guest's heap, in bytes; DEFAULT_MEMORY_BYTES when omitted. */
  memoryBytes?: number;
  /** Handed to the guest code as the global `args` (a deep copy through JSON). */
  input?: JsonValue;
  signal?: AbortSignal;
}

export interface JsRunResult {
  /** The value of the last expression or of an explicit `return`; undefined when there was none
   * or it could not be turned into JSON (then `error` says why). */
  value: JsonValue | undefined;
  /** Captured console output, one line per call; `console.warn`/`error` lines are prefixed. */
  logs: string;
  /** What went wrong, in words (thrown error with its stack, limit hit, non-JSON result), or null. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
  /** True when the console output went past its cap and was cut. */
  truncated: boolean;
}

/* ---- Calculator (behind the calculator tool) ---- */

export interface Calculation {
  expression: string;
  /** The result as text: numbers to 64 significant digits, units with their unit. */
  result: string;
  /** mathjs's name for the result's type: BigNumber, Unit, Complex, DenseMatrix… */
  type: string;
}

/** Evaluates calculator expressions away from the caller's thread, with a hard deadline: mathjs
 * runs synchronously and cannot be interrupted, so a call past its deadline ends its worker. */
export interface CalculatorRunner {
  calculate(expression: string, options: CalculateOptions): Promise<CalculatorRunResult>;
  /** Stops the worker; a later call starts a fresh one. */
  dispose(): void;
}

export interface CalculateOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface CalculatorRunResult {
  /** The result, or null when there is none (then `error` or a stop says why). */
  calculation: Calculation | null;
  /** Why the expression was refused or failed, in words for the model, or null. */
  error: string | null;
  timedOut: boolean;
  aborted: boolean;
  durationMs: number;
}
