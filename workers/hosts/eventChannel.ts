// The run's events leave the orchestrator worker for the page in batches (postMessage), and the
// page records them in History as they come. A batch the channel refuses (its structured clone
// fails: a value nested past what the clone walks, one too large) must not take the run with it:
// every run already bounds what its events hold (workers/engine/callLimits.ts), and should one get
// through anyway, the batch is sent again event by event, each event that cannot be sent is
// replaced by a fatal error event that says so, and the host is told, so that it ends the run
// with that error. A run always leaves a record: its start, its error and its end.

import type { RunEvent, RunEventOf } from '../engine/events.ts';

/** Sends one batch to the page; throws when the channel refuses it. */
export type SendEvents = (events: RunEvent[]) => void;

/** Told once per run whose event could not be sent, with why, in words. */
export type OnLostEvent = (runId: string, message: string) => void;

/** `send`, made safe: a batch it refuses is sent event by event, an event it refuses replaced. */
export function sendEventsSafely(send: SendEvents, onLost: OnLostEvent): SendEvents {
  return (events) => {
    try {
      send(events);
      return;
    } catch {
      // Sent again one by one below: the events that can be sent are.
    }
    const told = new Set<string>();
    for (const event of events) {
      if (trySend(send, event)) continue;
      const message = `An event of this run (${describe(event)}) could not be sent to the page, so the run was ended here.`;
      trySend(send, lostEvent(event, message));
      if (event.type === 'run_finished') trySend(send, endedByError(event));
      if (!told.has(event.runId)) {
        told.add(event.runId);
        onLost(event.runId, message);
      }
    }
  };
}

function trySend(send: SendEvents, event: RunEvent): boolean {
  try {
    send([event]);
    return true;
  } catch {
    return false;
  }
}

function describe(event: RunEvent): string {
  const step = 'step' in event && typeof event.step === 'number' ? ` of step ${event.step}` : '';
  const name = event.type === 'tool_call' || event.type === 'tool_result' ? ` ${event.name.slice(0, 80)}` : '';
  return `${event.type}${name}${step}`;
}

/** What stands in for an event that could not be sent: plain text, which always can be. */
function lostEvent(event: RunEvent, message: string): RunEventOf<'error'> {
  const step = 'step' in event && typeof event.step === 'number' ? { step: event.step } : {};
  return { runId: event.runId, t: event.t, type: 'error', ...step, code: 'channel', message, fatal: true };
}

/** A run's end that could not be sent, as one that can: ended by the error, its figures kept. */
function endedByError(event: RunEventOf<'run_finished'>): RunEventOf<'run_finished'> {
  const { totals } = event;
  return { runId: event.runId, t: event.t, type: 'run_finished', stopReason: 'error', answer: null, totals: { ...totals, toolCounts: { tools: {}, aliases: {} } } };
}
