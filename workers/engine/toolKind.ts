// A built-in tool: one function the function-calling protocol can offer (docs/architecture.md,
// "Registries"). Each tool is one folder, tools/<tool>/, whose tool.ts exports this descriptor,
// listed in tools/registry.ts: its name (what a config's `functionCalling.tools` lists), where it
// can run, what it needs from the host, and how it is made from the host's parts.

import type { CalculatorRunner, JavaScriptRunner, PythonRunner, Retriever } from './ports.ts';
import type { Tool } from './types.ts';

/** The sandboxes and the search a host offers its tools (the orchestrator worker and the CLI offer
 * all four; workers/hosts/prepareRun.ts hands them over). */
export interface ToolSandboxes {
  retriever: Retriever;
  python: PythonRunner;
  /** The QuickJS sandbox, for run_javascript and custom tools; absent where none runs. */
  javascript?: JavaScriptRunner;
  /** mathjs in its own worker, for the calculator; absent where none runs. */
  calculator?: CalculatorRunner;
}

/** What a host gives every tool: its sandboxes, and the limits and prices its config sets. */
export interface ToolHost extends ToolSandboxes {
  searchLimit: number;
  /** What `retriever` searches, for search_corpus's description; the local corpus otherwise. */
  searchDescription?: string;
  codeTimeoutMs: number;
  codeUsdPerSecond: number;
}

export type ToolNeed = keyof ToolSandboxes;

/** Each part a tool may need, in words, for the error when a host lacks it. */
export const TOOL_NEED_WORDS: Record<ToolNeed, string> = {
  retriever: 'a search',
  python: 'the Python sandbox (Pyodide)',
  javascript: 'the JavaScript sandbox (QuickJS)',
  calculator: 'the calculator sandbox (mathjs in a worker)',
};

/** The host, with the parts a tool needs there for sure. */
export type ToolHostWith<N extends ToolNeed> = ToolHost & Required<Pick<ToolSandboxes, N>>;

export interface ToolKind<N extends ToolNeed = ToolNeed> {
  /** The function's name: what the model calls and a config's `functionCalling.tools` lists. */
  name: string;
  /** Where it can run: the page's orchestrator worker, the CLI, or both. */
  runsIn: 'browser' | 'node' | 'both';
  /** The parts of the host it needs; a host without one refuses the tool, saying which. */
  needs: readonly N[];
  create(host: ToolHostWith<N>): Tool;
}

/** The parts of `needs` the host lacks. */
export function missingNeeds(kind: ToolKind, host: ToolHost): ToolNeed[] {
  return kind.needs.filter((need) => host[need] === undefined);
}
