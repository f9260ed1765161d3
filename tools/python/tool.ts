// The `run_python` tool: the model writes self-contained Python, the host's Python sandbox (Pyodide
// in a worker) runs it with a deadline, and the model reads what it printed.

import { formatSeconds } from '../../workers/engine/format.ts';
import type { PythonRunner } from '../../workers/engine/ports.ts';
import type { ToolKind } from '../../workers/engine/toolKind.ts';
import type { Tool } from '../../workers/engine/types.ts';

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

export const runPythonTool: ToolKind<'python'> = {
  name: 'run_python',
  runsIn: 'both',
  needs: ['python'],
  create: ({ python, codeTimeoutMs, codeUsdPerSecond }) => createRunPythonTool(python, { timeoutMs: codeTimeoutMs, usdPerSecond: codeUsdPerSecond }),
};
