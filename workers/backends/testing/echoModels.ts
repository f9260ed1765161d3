import type { BackendModels } from '../../engine/backendKind.ts';

export const echoModels: BackendModels = {
  create: ({ model }) => ({
    model: {
      model,
      label: `echo:${model}`,
      supportsServerTools: false,
      async complete(request) {
        const last = [...request.messages].reverse().find((message) => message.role === 'user');
        return { content: last?.content ?? '', finishReason: 'stop', latencyMs: 0, usage: { promptTokens: 1, completionTokens: 1 } };
      },
    },
  }),
};
