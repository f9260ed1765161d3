// The client tools offered in the function-calling protocol: the local corpus search, the Python
// and JavaScript sandboxes and the calculator, wrapped as JSON-schema'd tools, and the user's own
// custom tools.

import type { CustomToolConfig, OrchestraConfig } from '../workers/engine/config.ts';
import type { Tool } from '../workers/engine/types.ts';
import { createCalculatorTool } from './calculator/calculatorTool.ts';
import { CALCULATOR_TIMEOUT_MS, type CalculatorRunner } from './calculator/types.ts';
import { createCustomTool } from './custom/customTool.ts';
import { createJavaScriptTool } from './javascript/javascriptTool.ts';
import type { JavaScriptRunner } from '../workers/engine/ports.ts';
import type { PythonRunner } from '../workers/engine/ports.ts';
import type { Retriever, SourceFailure } from '../workers/engine/ports.ts';
import { searchSourceLabel } from './search/searchSources.ts';
import { formatSeconds } from '../workers/engine/format.ts';

const LOCAL_SEARCH_DESCRIPTION =
  'Search the local encyclopedia of countries and cities. Returns the best-matching documents with their text.';

/** `description` says what the retriever searches (see describeSearchSources); the local corpus otherwise. */
export function createSearchCorpusTool(retriever: Retriever, options: { limit: number; description?: string }): Tool {
  return {
    name: 'search_corpus',
    description: options.description ?? LOCAL_SEARCH_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'A few key words or a short question.' } },
      required: ['query'],
    },
    async run(args, { signal }) {
      const query = String(args.query);
      const problems: SourceFailure[] = [];
      const documents = await retriever.search(query, {
        limit: options.limit,
        signal,
        onSourceFailure: (failure) => problems.push(failure),
      });
      const found =
        documents.length === 0
          ? `No documents match "${query}".`
          : documents
              .map((doc, i) => `Doc ${i + 1} (${doc.title}${doc.source ? `, from ${searchSourceLabel(doc.source)}` : ''}): ${doc.text}`)
              .join('\n\n');
      const notSearched = problems.map((p) => `${searchSourceLabel(p.source)} was not searched: ${p.message}`);
      const content = [found, ...notSearched].join('\n\n');
      return { content, detail: { query, documents, ...(problems.length > 0 ? { problems } : {}) }, costUsd: 0 };
    },
  };
}

export function createRunPythonTool(python: PythonRunner, options: { timeoutMs: number; usdPerSecond: number }): Tool {
  return {
    name: 'run_python',
    description:
      'Run self-contained Python 3 code (standard library only) and return what it prints. Use print() to show results.',
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The Python source to run.' } },
      required: ['code'],
    },
    async run(args, { signal }) {
      const result = await python.run(String(args.code), { timeoutMs: options.timeoutMs, signal });
      const parts = [result.stdout];
      if (result.stderr) parts.push(`stderr:\n${result.stderr}`);
      if (result.error) parts.push(`error:\n${result.error}`);
      if (result.timedOut) parts.push(`Stopped: the code ran longer than ${formatSeconds(options.timeoutMs)}.`);
      return {
        content: parts.filter(Boolean).join('\n') || '(no output)',
        detail: result,
        costUsd: (result.durationMs / 1000) * options.usdPerSecond,
        costBasis: 'estimated',
        startup: { sandbox: 'Python', ms: result.startupMs ?? 0 },
        isError: result.timedOut || result.error !== null,
      };
    },
  };
}

export type FunctionToolName = OrchestraConfig['functionCalling']['tools'][number];

export interface FunctionToolDeps {
  retriever: Retriever;
  python: PythonRunner;
  /** The QuickJS sandbox, for run_javascript and custom tools; absent where none runs. */
  javascript?: JavaScriptRunner;
  /** mathjs in its own worker, for the calculator; absent where none runs. */
  calculator?: CalculatorRunner;
  searchLimit: number;
  /** What `retriever` searches, for search_corpus's description; the local corpus otherwise. */
  searchDescription?: string;
  codeTimeoutMs: number;
  codeUsdPerSecond: number;
}

function requireJavaScript(deps: FunctionToolDeps, what: string): JavaScriptRunner {
  if (deps.javascript) return deps.javascript;
  throw new Error(`${what} needs the JavaScript sandbox (QuickJS), which this environment does not provide.`);
}

function requireCalculator(deps: FunctionToolDeps): CalculatorRunner {
  if (deps.calculator) return deps.calculator;
  throw new Error('The tool "calculator" needs the calculator sandbox (mathjs in a worker), which this environment does not provide.');
}

/** The built-in tools named in the config, then the enabled custom tools. */
export function createFunctionCallingTools(
  names: readonly FunctionToolName[],
  deps: FunctionToolDeps,
  customTools: readonly CustomToolConfig[] = [],
): Tool[] {
  const code = { timeoutMs: deps.codeTimeoutMs, usdPerSecond: deps.codeUsdPerSecond };
  const builtIn = names.map((name): Tool => {
    switch (name) {
      case 'search_corpus':
        return createSearchCorpusTool(deps.retriever, {
          limit: deps.searchLimit,
          ...(deps.searchDescription === undefined ? {} : { description: deps.searchDescription }),
        });
      case 'run_python':
        return createRunPythonTool(deps.python, code);
      case 'run_javascript':
        return createJavaScriptTool(requireJavaScript(deps, 'The tool "run_javascript"'), code);
      case 'calculator':
        // Within the code limit, and never longer than an expression within the caps needs.
        return createCalculatorTool(requireCalculator(deps), { timeoutMs: Math.min(deps.codeTimeoutMs, CALCULATOR_TIMEOUT_MS) });
      default:
        throw new Error(`No built-in tool is named "${name}".`);
    }
  });
  const custom = customTools
    .filter((tool) => tool.enabled)
    .map((tool) => createCustomTool(tool, requireJavaScript(deps, `The custom tool "${tool.name}"`), code));
  return [...builtIn, ...custom];
}
