// The `calculator` tool's descriptor (calculatorTool.ts makes the tool): it runs in the host's
// calculator worker, within the config's code time limit and never longer than an expression
// within the caps needs.

import type { ToolKind } from '../../workers/engine/toolKind.ts';
import { createCalculatorTool } from './calculatorTool.ts';
import { CALCULATOR_TIMEOUT_MS } from './types.ts';

export const calculatorTool: ToolKind<'calculator'> = {
  name: 'calculator',
  runsIn: 'both',
  needs: ['calculator'],
  create: ({ calculator, codeTimeoutMs }) => createCalculatorTool(calculator, { timeoutMs: Math.min(codeTimeoutMs, CALCULATOR_TIMEOUT_MS) }),
};
