// A fork: a run that goes on from a step of a stored run instead of from the start. The parent's
// steps 1..N are taken into the new run as they were recorded — their events re-emitted under the
// new run's id at their recorded times, their ledger entries kept as charged — and the protocol
// rebuilds its state from them (the paper protocol: the documents and code runs they gathered;
// function calling: the conversation). Nothing is called for those steps; the run goes on live
// from step N + 1, with whatever the new run's config changed (preference, experts, prices,
// orchestrator). The parent's log is untrusted (it may come from an imported file).

import type { ForkFrom, ProtocolName, RunEvent, RunEventOf } from './events.ts';
import type { ProtocolSession } from './protocol.ts';
import type { RunContext } from './runContext.ts';

export type KeptSteps =
  | { ok: true; throughStep: number; events: RunEvent[]; nextRequest: RunEventOf<'model_request'> | null; endMs: number }
  | { ok: false; problem: string };

const stepOf = (event: RunEvent): number | undefined => ('step' in event ? event.step : undefined);

/** The parent's events to keep, or why the fork cannot be made. */
export function keptSteps(fork: ForkFrom, protocol: ProtocolName): KeptSteps {
  const { throughStep, events } = fork;
  const started = events[0];
  if (started?.type !== 'run_started') return { ok: false, problem: 'the parent run’s log does not begin with its start' };
  if (started.protocol !== protocol) {
    return { ok: false, problem: `the parent ran the ${started.protocol} protocol and this run the ${protocol} one: fork with the same protocol` };
  }
  if (!Number.isInteger(throughStep) || throughStep < 1) return { ok: false, problem: `cannot go on from step ${throughStep}` };
  const finished = events.find((event): event is RunEventOf<'step_finished'> => event.type === 'step_finished' && event.step === throughStep);
  if (!finished) return { ok: false, problem: `the parent run did not finish step ${throughStep}` };
  const kept = events.filter((event) => {
    const step = stepOf(event);
    return step !== undefined && step >= 1 && step <= throughStep;
  });
  const nextRequest =
    events.find((event): event is RunEventOf<'model_request'> => event.type === 'model_request' && event.step === throughStep + 1) ?? null;
  return { ok: true, throughStep, events: kept, nextRequest, endMs: finished.t };
}

/** Takes the kept steps into the run and has the protocol rebuild its state from them. Returns
 * the number of turns taken, or null when the fork failed (reported as a fatal error event). */
export function goOnFrom(kept: KeptSteps, run: RunContext, session: ProtocolSession): number | null {
  if (!kept.ok) {
    run.emit({ type: 'error', code: 'fork', message: `This run cannot go on from the stored one: ${kept.problem}.`, fatal: true });
    return null;
  }
  try {
    session.restore({ throughStep: kept.throughStep, events: kept.events, nextRequest: kept.nextRequest });
  } catch (error) {
    run.emit({ type: 'error', code: 'fork', message: `This run cannot go on from the stored one: ${(error as Error).message}.`, fatal: true });
    return null;
  }
  for (const event of kept.events) run.restore(event);
  return kept.throughStep;
}
