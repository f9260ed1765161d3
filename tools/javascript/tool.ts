// The `run_javascript` tool's descriptor (javascriptTool.ts makes the tool): it runs in the host's
// QuickJS sandbox, within the config's code time limit and price.

import type { ToolKind } from '../../workers/engine/toolKind.ts';
import { createJavaScriptTool } from './javascriptTool.ts';

export const runJavaScriptTool: ToolKind<'javascript'> = {
  name: 'run_javascript',
  runsIn: 'both',
  needs: ['javascript'],
  create: ({ javascript, codeTimeoutMs, codeUsdPerSecond }) => createJavaScriptTool(javascript, { timeoutMs: codeTimeoutMs, usdPerSecond: codeUsdPerSecond }),
};
