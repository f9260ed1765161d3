// Turns a model's completion into calls: those a server already parsed (`tool_calls`) and those
// written as `<tool_call>` text, each with a fresh id, plus everything rejected and why.

import type { ParsedCall, RejectedCall } from './events.ts';
import type { OrchestratorOutput } from './protocol.ts';
import { parseModelOutput, parseServerToolCalls } from './qwen3/parse.ts';
import { MAX_REJECTED_PER_REPLY, MAX_TOOL_CALLS_PER_REPLY } from './callLimits.ts';
import { formatCount } from './format.ts';
import type { ChatCompletion } from './types.ts';

export function interpretCompletion(completion: ChatCompletion, newCallId: () => string): OrchestratorOutput {
  const parsed = parseModelOutput(completion.content, { keepRaw: true });
  const server = completion.toolCalls?.length
    ? parseServerToolCalls(completion.toolCalls)
    : { calls: [], rejected: [] };
  // Server ids are not unique across turns or models, so every call gets one of ours.
  const raws = new Map((completion.toolCalls ?? []).map((call) => [call.id, call.arguments]));
  let unread = Math.max(0, server.calls.length - MAX_TOOL_CALLS_PER_REPLY);
  const calls: ParsedCall[] = server.calls.slice(0, MAX_TOOL_CALLS_PER_REPLY).map((call) => {
    const raw = raws.get(call.id);
    return { ...call, id: newCallId(), origin: 'server', ...(typeof raw === 'string' ? { raw } : {}) };
  });
  const seen = new Set(calls.map(callKey));
  for (const call of parsed.calls) {
    const key = callKey(call);
    if (seen.has(key)) continue;
    seen.add(key);
    if (calls.length < MAX_TOOL_CALLS_PER_REPLY) calls.push({ ...call, id: newCallId() });
    else unread += 1;
  }
  const reasoning = [completion.reasoning?.trim(), parsed.reasoning].filter(Boolean).join('\n\n');
  return {
    completion,
    reasoning,
    message: parsed.message,
    calls,
    rejected: boundedRejections([...server.rejected, ...parsed.rejected], unread),
  };
}

function callKey(call: { name: string; arguments: Record<string, unknown> }): string {
  return `${call.name}\u0000${JSON.stringify(call.arguments)}`;
}

/** At most MAX_REJECTED_PER_REPLY rejections, then one that counts the rest and the calls past
 * MAX_TOOL_CALLS_PER_REPLY that were not read. */
function boundedRejections(rejected: RejectedCall[], unread: number): RejectedCall[] {
  const kept = rejected.slice(0, MAX_REJECTED_PER_REPLY);
  const more = rejected.length - kept.length;
  const parts = [
    ...(more > 0 ? [`${formatCount(more)} more calls were rejected`] : []),
    ...(unread > 0 ? [`${formatCount(unread)} calls past the ${formatCount(MAX_TOOL_CALLS_PER_REPLY)} a reply may make were not read`] : []),
  ];
  if (parts.length > 0) kept.push({ raw: '', reason: `${parts.join(', and ')}` });
  return kept;
}
