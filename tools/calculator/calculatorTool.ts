// The `calculator` tool: the model writes a mathjs expression and reads the result, or why there is
// none. The expression runs in the calculator's own worker with a deadline (CalculatorRunner).

import type { Tool, ToolOutput } from '../../workers/engine/types.ts';
import type { CalculatorRunner } from '../../workers/engine/ports.ts';

/** How much of a refused expression is quoted back: the expression may be long. */
const QUOTED_CHARS = 200;

export function createCalculatorTool(runner: CalculatorRunner, options: { timeoutMs: number }): Tool {
  return {
    name: 'calculator',
    description:
      'Evaluate a math expression exactly, with 64 significant digits (0.1 + 0.2 is 0.3). Supports units ' +
      '("5 km to mile", "3 kg * 9.81 m/s^2"), big integers ("2^200", "30!"), functions (sqrt, log, sin, ' +
      'gcd, mean…), matrices ("det([1, 2; 3, 4])") and variables within one expression ("r = 2; pi * r^2").',
    parameters: {
      type: 'object',
      properties: { expression: { type: 'string', description: 'A mathjs expression, e.g. "sqrt(2) * 5 km to m".' } },
      required: ['expression'],
    },
    async run(args, { signal }): Promise<ToolOutput> {
      const expression = args.expression;
      if (typeof expression !== 'string' || expression.trim() === '') {
        return { content: 'The `expression` argument must be a non-empty string.', isError: true, costUsd: 0 };
      }
      const result = await runner.calculate(expression, { timeoutMs: options.timeoutMs, signal });
      if (result.calculation) return { content: result.calculation.result, detail: result.calculation, costUsd: 0, isError: false };
      if (result.aborted) return { content: 'Stopped: the run was cancelled.', isError: true, costUsd: 0 };
      const quoted = expression.length > QUOTED_CHARS ? `${expression.slice(0, QUOTED_CHARS)}…` : expression;
      return {
        content: `Could not evaluate "${quoted}": ${result.error ?? 'there is no result'}`,
        detail: { expression: quoted, error: result.error, timedOut: result.timedOut },
        isError: true,
        costUsd: 0,
      };
    },
  };
}
