// The engine's core interfaces: chat models, tools and what flows between them.
// Pure TypeScript: no DOM, no Node APIs. The same code runs in a Web Worker, in Node
// unit tests and in the command-line runner.

/** A JSON Schema object as used in OpenAI function definitions. */
export type JsonSchema = { [key: string]: unknown };

/** One message of a chat. Tool results travel as `user` turns wrapped in `<tool_response>`
 * (Qwen3's template has no separate tool role for web-llm), or as `tool` turns when a server
 * renders the template itself. */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[] }
  | { role: 'tool'; content: string; toolCallId: string; name: string };

/** An OpenAI-style function definition, as listed to the model. */
export interface ToolSchema {
  name: string;
  description: string;
  parameters: JsonSchema;
}

/** A call the model asked for (already parsed into an object). */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** Token usage as a provider reports it. `costUsd` is the provider's own figure when it
 * sends one (OpenRouter does); it wins over any price table. */
export interface Usage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens served from the provider's prompt cache (a subset of promptTokens). */
  cachedPromptTokens?: number;
  /** Anthropic's cache writes (a subset of promptTokens), billed at a premium. */
  cacheWritePromptTokens?: number;
  /** Reasoning tokens (a subset of completionTokens). */
  reasoningTokens?: number;
  costUsd?: number;
  /** Local engines report speed; remote ones usually do not. */
  prefillTokensPerSecond?: number;
  decodeTokensPerSecond?: number;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'abort' | 'error' | 'unknown';

export interface ChatRequest {
  messages: ChatMessage[];
  /** Tools for the server to render and parse (vLLM `--tool-call-parser hermes`). Backends that
   * cannot (web-llm with Qwen3) never receive this: the engine renders tools into the prompt. */
  tools?: ToolSchema[];
  temperature?: number;
  maxTokens?: number;
  /** Qwen3's thinking switch (`enable_thinking`), where the backend supports it. */
  enableThinking?: boolean;
  /** Send through OpenAI's Responses API (`/responses`) instead of Chat Completions, as the
   * reference asks a GPT-5 expert in function calling. Backends with one API of their own ignore it. */
  api?: 'responses';
  /** The Responses API's `reasoning.effort` (sent only with `api: 'responses'`). */
  reasoningEffort?: 'low' | 'medium' | 'high';
  signal?: AbortSignal;
}

export type ChatDelta =
  | { type: 'reasoning'; text: string }
  | { type: 'content'; text: string }
  /** A backend is waiting before retrying (rate limit, 5xx). */
  | { type: 'retry'; attempt: number; waitMs: number; reason: string };

export interface ChatCompletion {
  /** The raw text the model produced (may contain `<think>` and `<tool_call>` blocks). */
  content: string;
  /** Reasoning a server separated out (`reasoning_content`), if any. */
  reasoning?: string;
  /** Calls a server already parsed (OpenAI `tool_calls`). Arguments that were not valid JSON
   * are kept as the raw string so the engine can report them. */
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  /** Undefined when the provider sent no usage (then the ledger estimates). */
  usage?: Usage;
  finishReason: FinishReason;
  /** The model id the provider says answered. */
  model?: string;
  /** Wall time of the whole call and to its first token, in milliseconds. */
  latencyMs: number;
  timeToFirstTokenMs?: number;
  /** A local engine's own measurements of the call (web-llm's `usage.extra`). */
  timings?: EngineTimings;
}

/** What an in-browser engine measured itself, in milliseconds. Unlike `latencyMs` and
 * `timeToFirstTokenMs`, these leave out waiting for the model (another call holding it). */
export interface EngineTimings {
  /** Prefill: from the engine taking the request to its first token. */
  timeToFirstTokenMs: number;
  timePerOutputTokenMs: number;
  totalMs: number;
  /** Building the grammar for constrained output, when the request had one. */
  grammarInitMs?: number;
}

/** A chat model: the orchestrator or an expert, remote or local. One made for a run may keep
 * that run's state between calls (the scripted demo's orchestrator does): it serves that run only. */
export interface ChatModel {
  /** The model id sent to the provider (and the key into the pricing table). */
  readonly model: string;
  /** A short label for traces, e.g. "openai-compatible:gpt-5". */
  readonly label: string;
  /** Whether this backend can take `tools` and return parsed `toolCalls` itself. */
  readonly supportsServerTools: boolean;
  /** What a viewer must be told about this model wherever its run shows ("A scripted demo, not a
   * model"); carried by `run_started` for the orchestrator. */
  readonly notice?: string;
  /** Streams deltas through `onDelta` and resolves with the whole completion. Rejects with a
   * `BackendError` (see errors.ts); an aborted call rejects with code `aborted`. */
  complete(request: ChatRequest, onDelta?: (delta: ChatDelta) => void): Promise<ChatCompletion>;
}

export interface ToolRunContext {
  signal: AbortSignal;
  /** The call as the model wrote it: its id, and the JSON text it was read from (ParsedCall.raw). */
  call?: { id: string; raw?: string; origin: 'text' | 'server' | 'think' };
}

/** What a tool returns. `content` is what the model sees. */
/** A wait for a sandbox to start before a tool's work (Python's interpreter takes seconds). */
export interface SandboxStartup {
  /** What started, in words: "Python". */
  sandbox: string;
  ms: number;
}

export interface ToolOutput {
  content: string;
  /** Structured detail for the trace (documents, code and output…); never sent to the model. */
  detail?: unknown;
  /** The tool's own cost where it has one (code per second, search per call). */
  costUsd?: number;
  /** `estimated` when costUsd comes from a rate rather than a bill. Default `measured`. */
  costBasis?: 'measured' | 'estimated';
  /** Time the tool waited for its sandbox to start before running (part of its latency). */
  startup?: SandboxStartup;
  isError?: boolean;
}

/** A client-side tool: a JSON-schema'd function with a cancellable run. */
export interface Tool {
  name: string;
  description: string;
  parameters: JsonSchema;
  /** The tool checks its own arguments (τ²'s tools, as pydantic does, with their own errors):
   * the protocol hands them over unchecked against `parameters`. */
  checksOwnArguments?: boolean;
  run(args: Record<string, unknown>, context: ToolRunContext): Promise<ToolOutput>;
}

// A turn a person takes as the orchestrator (humanOrchestrator.ts): what the page is asked and
// what it answers, across the worker boundary.

/** One row of a paper-protocol tool's alias table as the orchestrator reads it (figures as written there). */
export interface AliasRow {
  alias: string;
  inputPerM: string;
  outputPerM: string;
  latency: string;
}

/** One tool of the menu as a person reads it: the same text, the aliases' table as rows. */
export interface MenuItem {
  name: string;
  description: string;
  aliases: AliasRow[];
  /** What the person may write themselves instead of the expert. */
  writable?: 'query' | 'code';
}

export interface HumanTurn {
  /** Answers go back with this id. */
  turnId: string;
  /** The menu, read from `tools`. */
  menu: MenuItem[];
  /** The tool menu, exactly as the orchestrator would be offered it. */
  tools: ToolSchema[];
  /** The messages the orchestrator would read this turn. */
  messages: ChatMessage[];
  /** Why the person's last choice for this turn was refused (asked again). */
  problem?: string;
}

export interface HumanChoice {
  /** A tool of the menu. */
  name: string;
  /** Its arguments: `model` (the alias), and in the paper protocol optionally the person's own
   * `query` (search) or `code` (enhance_reasoning) instead of the expert's. */
  arguments: Record<string, unknown>;
}
