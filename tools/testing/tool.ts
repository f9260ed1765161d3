// A test-only tool, added the way every tool is (docs/configuration.md, "Function calling"): this
// folder and one line in a registry; tools/registry.test.ts lists it beside the real ones. An
// `uppercase` call hands its text to the host's JavaScript sandbox, which gives it back in capitals.
// Production code never imports it (`npm run lint` refuses an import of a testing/ folder).

import type { ToolKind } from '../../workers/engine/toolKind.ts';

export const uppercaseTool: ToolKind<'javascript'> = {
  name: 'uppercase',
  runsIn: 'both',
  needs: ['javascript'],
  create: ({ javascript, codeTimeoutMs }) => ({
    name: 'uppercase',
    description: 'Write a text in capitals.',
    parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    async run(args, { signal }) {
      const result = await javascript.run('return String(args.text).toUpperCase();', { timeoutMs: codeTimeoutMs, input: { text: String(args.text) }, signal });
      return { content: String(result.value ?? result.error), isError: result.error !== null, costUsd: 0 };
    },
  }),
};
