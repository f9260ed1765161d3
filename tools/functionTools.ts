// The built-in client tools offered in the function-calling protocol: the local corpus search
// and the Python interpreter, wrapped as JSON-schema'd tools.

import type { Tool } from '../workers/engine/types.ts';
import type { PythonRunner } from './python/types.ts';
import type { Retriever } from './search/retriever.ts';
import { formatSeconds } from '../workers/engine/format.ts';

export function createSearchCorpusTool(retriever: Retriever, options: { limit: number }): Tool {
  return {
    name: 'search_corpus',
    description:
      'Search the local encyclopedia of countries and cities. Returns the best-matching documents with their text.',
    parameters: {
      type: 'object',
      properties: { query: { type: 'string', description: 'A few key words or a short question.' } },
      required: ['query'],
    },
    async run(args, { signal }) {
      const query = String(args.query);
      const documents = await retriever.search(query, { limit: options.limit, signal });
      const content =
        documents.length === 0
          ? `No documents match "${query}".`
          : documents.map((doc, i) => `Doc ${i + 1} (${doc.title}): ${doc.text}`).join('\n\n');
      return { content, detail: { query, documents }, costUsd: 0 };
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
        isError: result.timedOut || result.error !== null,
      };
    },
  };
}

export type FunctionToolName = 'search_corpus' | 'run_python';

export function createFunctionCallingTools(
  names: readonly FunctionToolName[],
  deps: { retriever: Retriever; python: PythonRunner; searchLimit: number; codeTimeoutMs: number; codeUsdPerSecond: number },
): Tool[] {
  return names.map((name) =>
    name === 'search_corpus'
      ? createSearchCorpusTool(deps.retriever, { limit: deps.searchLimit })
      : createRunPythonTool(deps.python, { timeoutMs: deps.codeTimeoutMs, usdPerSecond: deps.codeUsdPerSecond }),
  );
}
