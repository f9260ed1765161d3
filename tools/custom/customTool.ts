// A tool the user wrote (config `customTools`): its JavaScript runs in the QuickJS sandbox with
// the call's arguments as `args`, and whatever JSON value it returns is the observation. The
// engine checks the arguments against the tool's schema before `run` is ever called.

import type { CustomToolConfig } from '../../workers/engine/config.ts';
import type { Tool, ToolOutput } from '../../workers/engine/types.ts';
import type { JavaScriptRunner, JsonValue, JsRunResult } from '../../workers/engine/ports.ts';

export interface CustomToolOptions {
  timeoutMs: number;
  memoryBytes?: number;
  /** The price of a second of code, as run_python and run_javascript are charged. */
  usdPerSecond: number;
}

/** What the trace shows of a custom tool's run. */
export interface CustomToolDetail {
  tool: 'custom';
  value: JsonValue | undefined;
  logs: string;
  error: string | null;
  timedOut: boolean;
  durationMs: number;
}

/** What the orchestrator reads: a string result as is, anything else as JSON, or what went wrong. */
export function describeCustomResult(name: string, result: JsRunResult): { content: string; isError: boolean } {
  if (result.aborted) return { content: 'Stopped: the run was cancelled.', isError: true };
  const logs = result.logs ? `\nconsole output:\n${result.logs.replace(/\n$/, '')}` : '';
  if (result.error !== null) return { content: `Error: the tool ${name} failed: ${result.error}${logs}`, isError: true };
  if (result.value === undefined) {
    return {
      content: `Error: the tool ${name} returned no value; its code must end with \`return <JSON value>\`.${logs}`,
      isError: true,
    };
  }
  return { content: typeof result.value === 'string' ? result.value : JSON.stringify(result.value), isError: false };
}

export function createCustomTool(definition: CustomToolConfig, runner: JavaScriptRunner, options: CustomToolOptions): Tool {
  return {
    name: definition.name,
    description: definition.description,
    parameters: definition.parameters,
    async run(args, { signal }): Promise<ToolOutput> {
      const result = await runner.run(definition.code, {
        timeoutMs: options.timeoutMs,
        ...(options.memoryBytes === undefined ? {} : { memoryBytes: options.memoryBytes }),
        // Arguments arrive parsed from JSON, so they are JSON data.
        input: args as { [key: string]: JsonValue },
        signal,
      });
      // A tenth of a millisecond is as fine as the clock is meaningful here.
      const durationMs = Math.round(result.durationMs * 10) / 10;
      const detail: CustomToolDetail = {
        tool: 'custom',
        value: result.value,
        logs: result.logs,
        error: result.error,
        timedOut: result.timedOut,
        durationMs,
      };
      return {
        ...describeCustomResult(definition.name, result),
        detail,
        costUsd: (durationMs / 1000) * options.usdPerSecond,
        ...(options.usdPerSecond > 0 ? { costBasis: 'estimated' as const } : {}),
      };
    },
  };
}
