import { formatSeconds } from '../../workers/engine/format.ts';
import type { Tool, ToolOutput } from '../../workers/engine/types.ts';
import { DEFAULT_MEMORY_BYTES } from './types.ts';
import { type JavaScriptRunner, type JsRunResult } from '../../workers/engine/ports.ts';

export interface JavaScriptToolOptions {
  timeoutMs: number;
  memoryBytes?: number;
  /** An estimated price of compute time; 0 (the default) makes the tool free. */
  usdPerSecond?: number;
}

/** The `run_javascript` tool: the model writes code, reads back its result and console output. */
export function createJavaScriptTool(runner: JavaScriptRunner, options: JavaScriptToolOptions): Tool {
  const memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
  const usdPerSecond = options.usdPerSecond ?? 0;
  return {
    name: 'run_javascript',
    description:
      'Run self-contained JavaScript (ES2023) in an isolated QuickJS sandbox. Returns the value of the last ' +
      'expression (or of a top-level `return`) as JSON, plus anything printed with console.log. ' +
      'No network, timers, DOM, modules or files. ' +
      `Limited to ${formatSeconds(options.timeoutMs)} and ${Math.round(memoryBytes / (1024 * 1024))} MiB.`,
    parameters: {
      type: 'object',
      properties: { code: { type: 'string', description: 'The JavaScript source to run.' } },
      required: ['code'],
    },
    async run(args, { signal }): Promise<ToolOutput> {
      if (typeof args.code !== 'string' || args.code.trim() === '') {
        return { content: 'The `code` argument must be a non-empty string of JavaScript.', isError: true, costUsd: 0 };
      }
      const result = await runner.run(args.code, { timeoutMs: options.timeoutMs, memoryBytes, signal });
      return {
        content: formatJsRunResult(result),
        detail: { code: args.code, ...result },
        costUsd: (result.durationMs / 1000) * usdPerSecond,
        ...(usdPerSecond > 0 ? { costBasis: 'estimated' as const } : {}),
        isError: result.error !== null || result.timedOut || result.aborted,
      };
    },
  };
}

/** What the model reads: console output, then the result or what went wrong. */
export function formatJsRunResult(result: JsRunResult): string {
  const parts: string[] = [];
  // Cut console output ends with a line saying how much was cut.
  if (result.logs) parts.push(`console output:\n${result.logs.replace(/\n$/, '')}`);
  if (result.value !== undefined) parts.push(`result: ${JSON.stringify(result.value)}`);
  if (result.error !== null) parts.push(`error: ${result.error}`);
  if (result.aborted) parts.push('Stopped: the run was cancelled.');
  if (parts.length === 0) {
    return '(no output and no result: end the code with an expression, or use `return`, to give a value)';
  }
  return parts.join('\n');
}
