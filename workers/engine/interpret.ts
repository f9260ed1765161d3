// Turns a model's completion into calls: those a server already parsed (`tool_calls`) and those
// written as `<tool_call>` text, each with a fresh id, plus everything rejected and why.

import type { ParsedCall } from './events.ts';
import type { OrchestratorOutput } from './protocol.ts';
import { parseModelOutput, parseServerToolCalls } from './qwen3/parse.ts';
import type { ChatCompletion } from './types.ts';

export function interpretCompletion(completion: ChatCompletion, newCallId: () => string): OrchestratorOutput {
  const parsed = parseModelOutput(completion.content, { keepRaw: true });
  const server = completion.toolCalls?.length
    ? parseServerToolCalls(completion.toolCalls)
    : { calls: [], rejected: [] };
  // Server ids are not unique across turns or models, so every call gets one of ours.
  const rawOf = (id: string) => completion.toolCalls?.find((call) => call.id === id)?.arguments;
  const calls: ParsedCall[] = server.calls.map((call) => {
    const raw = rawOf(call.id);
    return { ...call, id: newCallId(), origin: 'server', ...(typeof raw === 'string' ? { raw } : {}) };
  });
  for (const call of parsed.calls) {
    const duplicate = calls.some(
      (c) => c.name === call.name && JSON.stringify(c.arguments) === JSON.stringify(call.arguments),
    );
    if (!duplicate) calls.push({ ...call, id: newCallId() });
  }
  const reasoning = [completion.reasoning?.trim(), parsed.reasoning].filter(Boolean).join('\n\n');
  return {
    completion,
    reasoning,
    message: parsed.message,
    calls,
    rejected: [...server.rejected, ...parsed.rejected],
  };
}
