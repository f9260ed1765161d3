// "Try it": the tool being edited, called on sample arguments the way a run calls it — the
// arguments checked against its schema first, then its code in the QuickJS sandbox (a worker of
// this page), with the observation the orchestrator would read.

import { createCustomTool, type CustomToolDetail } from '../../../tools/custom/customTool.ts';
import { createBrowserJavaScriptRunner } from '../../../tools/javascript/browserJavaScriptRunner.ts';
import type { JavaScriptRunner } from '../../../workers/engine/ports.ts';
import type { JsonSchema } from '../../../workers/engine/types.ts';
import { validateArguments } from '../../../workers/engine/validateArguments.ts';

export type TryOutcome =
  /** The sample arguments are not JSON, or do not fit the schema: the code did not run. */
  | { kind: 'invalid'; problems: string[] }
  | { kind: 'ran'; observation: string; isError: boolean; detail: CustomToolDetail };

/** The QuickJS sandbox "Try it" runs in: started on the first try, then kept for the page (one
 * per set of stores: usePart(createToolSandbox)). */
export class ToolSandbox {
  private runner: JavaScriptRunner | null = null;

  get(): JavaScriptRunner {
    this.runner ??= createBrowserJavaScriptRunner();
    return this.runner;
  }
}

export function createToolSandbox(): ToolSandbox {
  return new ToolSandbox();
}

/** Reads the sample arguments and checks them against the schema, as the engine checks a call's. */
export function checkSampleArguments(text: string, schema: JsonSchema): { args: Record<string, unknown> } | { problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problems: [`The sample arguments are not valid JSON: ${(error as Error).message}`] };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problems: ['The sample arguments must be a JSON object of named arguments, like {"text": "hello"}.'] };
  }
  const args = value as Record<string, unknown>;
  const problems = validateArguments(args, schema);
  return problems.length === 0 ? { args } : { problems };
}

export async function tryTool(
  tool: { name: string; description: string; parameters: JsonSchema; code: string },
  argsText: string,
  timeoutMs: number,
  sandbox: ToolSandbox,
): Promise<TryOutcome> {
  const sample = checkSampleArguments(argsText, tool.parameters);
  if ('problems' in sample) return { kind: 'invalid', problems: sample.problems };
  const custom = createCustomTool({ ...tool, enabled: true }, sandbox.get(), { timeoutMs, usdPerSecond: 0 });
  const output = await custom.run(sample.args, { signal: new AbortController().signal });
  return { kind: 'ran', observation: output.content, isError: output.isError === true, detail: output.detail as CustomToolDetail };
}
