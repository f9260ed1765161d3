// One tool call as the run records it, the same in both protocols: its `tool_call` event, the
// work, and exactly one `tool_result` — whether the work succeeds, fails, throws or the run is
// stopped under it. The rule "every tool_call gets a tool_result" lives here and nowhere else.
// What is reported is cut to size first (truncate.ts), and what `report` returns is what was
// reported: the text the model will read.

import type { RunEventOf } from './events.ts';
import { RunStop, stoppedMessage, type TurnContext } from './protocol.ts';
import { cutText } from './format.ts';
import { cutDetail, MAX_TOOL_RESULT_CHARS } from './truncate.ts';

/** The call as the tool_call event records it. */
export type ToolCallRecord = Omit<RunEventOf<'tool_call'>, 'type' | 'step' | 'runId' | 't'>;

export interface ToolOutcome {
  ok: boolean;
  content: string;
  detail?: unknown;
  /** Why it failed; a failed outcome without one reports its content as the error. */
  error?: string;
}

/** Reports the call's result (once) and returns it as reported. */
export type ReportResult = <R extends ToolOutcome>(outcome: R) => R;

/**
 * Emits the call, runs `body`, and makes sure the call's result is reported exactly once: `body`
 * reports it (success, or a failure it handles), and when `body` throws before reporting, the
 * result says the run stopped (RunStop, or the run's signal aborted) or that the call failed, and
 * the error goes on to the caller. A body that returns without reporting is a bug in a protocol:
 * the call is reported failed rather than left open.
 */
export async function withToolCall<T>(
  context: TurnContext,
  call: ToolCallRecord,
  body: (report: ReportResult) => Promise<T>,
): Promise<T> {
  const { callId, name, arguments: args, offered, alias, model, parentCallId } = call;
  context.emit({
    type: 'tool_call',
    step: context.step,
    callId,
    name,
    arguments: args,
    ...(alias === undefined ? {} : { alias }),
    ...(model === undefined ? {} : { model }),
    offered,
    ...(parentCallId === undefined ? {} : { parentCallId }),
  });
  const started = performance.now();
  let reported = false;
  const report: ReportResult = (uncut) => {
    if (reported) throw new Error(`the result of ${name} (${callId}) was reported twice`);
    reported = true;
    const result = {
      ...uncut,
      content: cutText(uncut.content, MAX_TOOL_RESULT_CHARS),
      ...(uncut.detail === undefined ? {} : { detail: cutDetail(uncut.detail) }),
      ...(uncut.error === undefined ? {} : { error: cutText(uncut.error, MAX_TOOL_RESULT_CHARS) }),
    };
    context.emit({
      type: 'tool_result',
      step: context.step,
      callId,
      name,
      ok: result.ok,
      content: result.content,
      detail: result.detail,
      error: result.ok ? undefined : (result.error ?? result.content),
      latencyMs: Math.round(performance.now() - started),
      ...(parentCallId === undefined ? {} : { parentCallId }),
    });
    return result;
  };
  try {
    const value = await body(report);
    if (!reported) report({ ok: false, content: `Error: ${name} reported no result.` });
    return value;
  } catch (error) {
    if (!reported) {
      const stopped = error instanceof RunStop || context.signal.aborted;
      const message = stopped ? stoppedMessage(error) : `Error: ${name} failed: ${error instanceof Error ? error.message : String(error)}`;
      report({ ok: false, content: message });
    }
    throw error;
  }
}

/** True when `error` means the run was stopped under a call (not that the call failed). */
export function isStop(error: unknown, context: TurnContext): boolean {
  return error instanceof RunStop || context.signal.aborted;
}
