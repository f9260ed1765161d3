// What one run owns besides its loop: stopping (the user, the wall-time limit, the cost budget,
// all through one controller), the ledger, the counters the totals need, and emission (every
// event stamped with the run's id and time). The loop (run.ts) asks it for each turn's
// TurnContext, the only thing a protocol sees of the run.

import { raceAbort } from './abort.ts';
import { MAX_PROMPT_CHARS } from './callLimits.ts';
import { BackendError } from './errors.ts';
import { formatCount } from './format.ts';
import type { LedgerEntry, RunEvent, RunTotals, StopReason } from './events.ts';
import { interpretCompletion } from './interpret.ts';
import { Redactor, StreamRedactor, type Secret } from './redact.ts';
import { Ledger } from './ledger.ts';
import type { PricingTable } from './pricing.ts';
import { RunStop, type EventBody, type ModelCallOptions, type TurnContext } from './protocol.ts';
import { renderToolsBlock } from './qwen3/render.ts';
import { estimatePromptTokens, estimateTokensOfLength } from './tokens.ts';
import type { ChatCompletion, ChatRequest } from './types.ts';

export interface RunContextOptions {
  runId: string;
  pricing: PricingTable;
  counterfactualModel?: string;
  maxCostUsd: number | null;
  maxWallMs: number | null;
  /** The caller's stop (the Stop button, a closed tab). */
  signal?: AbortSignal;
  /** Where the run's clock starts: a fork goes on from the recorded time of its last kept step. */
  clockStartMs?: number;
  /** The keys the host holds: no event carries one, and no completion a protocol reads on. */
  secrets?: readonly Secret[];
  onEvent: (event: RunEvent) => void;
}

type DeltaBody = Extract<EventBody, { type: 'content_delta' | 'reasoning_delta' }>;

export class RunContext {
  readonly ledger: Ledger;
  private readonly controller = new AbortController();
  private stopRequested: StopReason | null;
  private readonly started = performance.now();
  private readonly wallTimer: ReturnType<typeof setTimeout> | undefined;
  /** The caller's stop: the Stop button's ('aborted'), or a host's own given as a RunStop (a run
   * whose events could not reach the page ends as an error: workers/hosts/eventChannel.ts). */
  private readonly onCallerAbort = () => this.stop(callerStopReason(this.options.signal));
  private readonly toolCounts: RunTotals['toolCounts'] = { tools: {}, aliases: {} };
  private toolLatencyMs = 0;
  private callCounter = 0;
  private readonly redactor: Redactor | null;
  /** The streams of deltas under way, by kind, step and call, each with the tail it holds back. */
  private readonly streams = new Map<string, { event: DeltaBody; redactor: StreamRedactor }>();

  constructor(private readonly options: RunContextOptions) {
    const redactor = new Redactor(options.secrets ?? []);
    this.redactor = redactor.active ? redactor : null;
    this.ledger = new Ledger({ pricing: options.pricing, counterfactualModel: options.counterfactualModel, clock: () => this.now() });
    this.stopRequested = options.signal?.aborted ? callerStopReason(options.signal) : null;
    options.signal?.addEventListener('abort', this.onCallerAbort, { once: true });
    this.wallTimer = options.maxWallMs === null ? undefined : setTimeout(() => this.stop('max_time'), options.maxWallMs);
  }

  /** Milliseconds since the run started. */
  now(): number {
    return performance.now() - this.started + (this.options.clockStartMs ?? 0);
  }

  /** Why the run was asked to stop, or null while it may go on. */
  get stopReason(): StopReason | null {
    return this.stopRequested;
  }

  /** Stops everything in flight; the first reason given is the one kept. */
  stop(reason: StopReason): void {
    if (this.stopRequested) return;
    this.stopRequested = reason;
    this.controller.abort();
  }

  budgetSpent(): boolean {
    return this.options.maxCostUsd !== null && this.ledger.totalUsd() >= this.options.maxCostUsd;
  }

  /** Throws RunStop when the run was stopped or its budget is spent (stopping it then). */
  assertMayGoOn(): void {
    if (this.stopRequested) throw new RunStop(this.stopRequested);
    if (this.budgetSpent()) {
      this.stop('max_cost');
      throw new RunStop('max_cost');
    }
  }

  emit(event: EventBody): void {
    this.emitAt(event, Math.round(this.now()));
  }

  /** Every event leaves through here: redacted, counted, stamped. A delta is redacted as part of
   * its stream (a key can be split across two); the tail it holds back leaves with the stream's
   * next delta, or when the call ends (endStreams). */
  private emitAt(event: EventBody, t: number, fromRecord = false): void {
    if (this.redactor) {
      if (!fromRecord && (event.type === 'content_delta' || event.type === 'reasoning_delta')) {
        const key = streamKey(event);
        let stream = this.streams.get(key);
        if (!stream) this.streams.set(key, (stream = { event, redactor: new StreamRedactor(this.redactor) }));
        const text = stream.redactor.push(event.text);
        if (text === '') return;
        event = { ...event, text };
      } else {
        if (event.type === 'run_finished') this.endStreams(() => true);
        event = this.redactor.value(event);
      }
    }
    this.stamp(event, t);
  }

  /** Lets out what the matching streams held back: it never became a key. */
  private endStreams(matches: (event: DeltaBody) => boolean): void {
    for (const [key, stream] of this.streams) {
      if (!matches(stream.event)) continue;
      this.streams.delete(key);
      const rest = stream.redactor.end();
      if (rest !== '') this.stamp({ ...stream.event, text: rest }, Math.round(this.now()));
    }
  }

  /**
   * Takes a recorded event into this run as it was (a fork's kept steps): re-stamped with this
   * run's id, at its recorded time; its ledger entry is kept as charged and counted in the totals.
   */
  restore(event: RunEvent): void {
    if (event.type === 'usage') this.ledger.restore(event.entry);
    const { runId: _parent, t, ...body } = event;
    this.emitAt(body as EventBody, t, true);
  }

  private stamp(event: EventBody, t: number): void {
    const stamped = { ...event, runId: this.options.runId, t } as RunEvent;
    if (stamped.type === 'tool_call') {
      const { tools, aliases } = this.toolCounts;
      tools[stamped.name] = (tools[stamped.name] ?? 0) + 1;
      if (stamped.alias) aliases[stamped.alias] = (aliases[stamped.alias] ?? 0) + 1;
    } else if (stamped.type === 'tool_result' && stamped.parentCallId === undefined) {
      // Calls an expert makes inside call_expert are already inside that call's time.
      this.toolLatencyMs += stamped.latencyMs;
    }
    this.options.onEvent(stamped);
  }

  /** What a protocol gets of the run for one turn. */
  turn(step: number): TurnContext {
    const signal = this.controller.signal;
    const charged = (entry: LedgerEntry) => this.emit({ type: 'usage', step, entry, totalUsd: this.ledger.totalUsd() });
    const newCallId = () => `call-${step}-${++this.callCounter}`;
    const race = <T>(promise: Promise<T>) => raceAbort(promise, signal, () => new RunStop(this.stopRequested ?? 'aborted'));
    return {
      step,
      signal,
      emit: (event) => this.emit(event),
      race,
      newCallId,
      // The calls parsed out of the (redacted) completion are redacted again: a parser may make a
      // key of what no form of it matched, and the tool, the events and the next prompt get these.
      interpret: (completion) => {
        const output = interpretCompletion(completion, newCallId);
        return this.redactor ? this.redactor.value(output) : output;
      },
      assertBudget: () => this.assertMayGoOn(),
      chargeSearch: (charge) => charged(this.ledger.recordSearch({ step, ...charge })),
      chargeCode: (charge) => charged(this.ledger.recordCodeExecution({ step, ...charge })),
      chargeTool: (charge) => charged(this.ledger.recordTool({ step, ...charge })),
      callModel: (call) => this.callModel(step, call, charged, race),
    };
  }

  /** Calls a model with its deltas as events, and charges it (an estimate when the provider
   * reported no usage, or when a call failed after streaming output it was likely billed for). */
  private async callModel(
    step: number,
    call: ModelCallOptions,
    charged: (entry: LedgerEntry) => void,
    race: <T>(promise: Promise<T>) => Promise<T>,
  ): Promise<ChatCompletion> {
    this.assertMayGoOn();
    refuseLongPrompt(call.request, call.model.model, call.model.label);
    const signal = this.controller.signal;
    const started = performance.now();
    const promptEstimate = () =>
      estimatePromptTokens(call.request.messages, call.request.tools ? renderToolsBlock(call.request.tools) : '');
    const record = (usage: ChatCompletion['usage'], completionChars: number, latencyMs: number) =>
      charged(
        this.ledger.recordModelCall({
          step,
          callId: call.callId,
          kind: call.kind,
          model: call.model.model,
          alias: call.alias,
          usage,
          estimatedUsage: usage
            ? undefined
            : { promptTokens: promptEstimate(), completionTokens: estimateTokensOfLength(completionChars) },
          latencyMs,
        }),
      );
    let streamedChars = 0;
    let completion: ChatCompletion;
    try {
      completion = await race(
        call.model.complete({ ...call.request, signal }, (delta) => {
          if (signal.aborted) return;
          if (delta.type === 'retry') {
            this.emit({ type: 'retry', step, callId: call.callId, attempt: delta.attempt, waitMs: delta.waitMs, reason: delta.reason });
          } else {
            streamedChars += delta.text.length;
            this.emit({ type: delta.type === 'reasoning' ? 'reasoning_delta' : 'content_delta', step, callId: call.callId, text: delta.text });
          }
        }),
      );
    } catch (error) {
      this.endStreams((event) => event.step === step && event.callId === call.callId);
      if (streamedChars > 0) record(undefined, streamedChars, performance.now() - started);
      throw error;
    }
    this.endStreams((event) => event.step === step && event.callId === call.callId);
    // What the protocol reads on (and the next prompt, to whichever provider) holds no key either;
    // its texts end where the reply ended, so a key cut short there is redacted too.
    if (this.redactor) completion = redactedCompletion(this.redactor, completion);
    record(completion.usage, (completion.reasoning ?? '').length + completion.content.length, completion.latencyMs);
    return completion;
  }

  /** The run's totals so far. */
  totals(turns: number): RunTotals {
    let promptTokens = 0;
    let completionTokens = 0;
    for (const entry of this.ledger.entries) {
      promptTokens += entry.usage?.promptTokens ?? 0;
      completionTokens += entry.usage?.completionTokens ?? 0;
    }
    return {
      costUsd: this.ledger.totalUsd(),
      unknownCostEntries: this.ledger.unknownCount(),
      hasEstimates: this.ledger.hasEstimates(),
      counterfactualUsd: this.ledger.counterfactualUsd(),
      promptTokens,
      completionTokens,
      ...(this.ledger.entries.some((entry) => entry.kind === 'user') ? { userCostUsd: this.ledger.userUsd() } : {}),
      latencyMs: Math.round(this.now()),
      toolLatencyMs: Math.round(this.toolLatencyMs),
      turns,
      toolCounts: this.toolCounts,
    };
  }

  /** Ends the run's timers and listeners, and cancels anything still in flight (a call a
   * protocol did not wait for). */
  dispose(): void {
    clearTimeout(this.wallTimer);
    this.options.signal?.removeEventListener('abort', this.onCallerAbort);
    this.controller.abort();
  }
}

function callerStopReason(signal: AbortSignal | undefined): StopReason {
  return signal?.reason instanceof RunStop ? signal.reason.reason : 'aborted';
}

/** A call whose messages pass MAX_PROMPT_CHARS is not made: the conversation grew past what any
 * model reads (a hostile partner inflated it), and each later call would send it again. */
function refuseLongPrompt(request: ChatRequest, model: string, provider: string): void {
  let chars = 0;
  for (const message of request.messages) {
    chars += message.content.length;
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) chars += JSON.stringify(call.arguments).length;
  }
  if (chars <= MAX_PROMPT_CHARS) return;
  throw new BackendError({
    code: 'context_length',
    provider,
    retryable: false,
    message:
      `The conversation is ${formatCount(chars)} characters long, more than the ${formatCount(MAX_PROMPT_CHARS)} (about 250,000 tokens) ` +
      `the playground sends "${model}" in one call, so the run ends here: no real conversation is that long.`,
  });
}

function streamKey(event: DeltaBody): string {
  return `${event.type}\u0000${event.step}\u0000${event.callId ?? ''}`;
}

/** A completion with every key removed, its texts (content, reasoning, each call's arguments) as
 * texts that end there (Redactor.endedText). */
function redactedCompletion(redactor: Redactor, completion: ChatCompletion): ChatCompletion {
  const { content, reasoning, toolCalls, ...rest } = completion;
  return {
    ...redactor.value(rest),
    content: redactor.endedText(content),
    ...(reasoning === undefined ? {} : { reasoning: redactor.endedText(reasoning) }),
    ...(toolCalls === undefined ? {} : { toolCalls: toolCalls.map((call) => ({ ...redactor.value(call), arguments: redactor.endedText(call.arguments) })) }),
  };
}
