// What a protocol (paper or function calling) plugs into the loop: the messages and tool menu of
// each orchestrator turn, and what to do with the orchestrator's output.

import type { CostBasis, ParsedCall, ProtocolName, RejectedCall, RunEvent, RunEventOf, StopReason } from './events.ts';
import type { ChatCompletion, ChatMessage, ChatModel, ChatRequest, SandboxStartup, ToolSchema } from './types.ts';

/** An event as a protocol emits it; the loop stamps `runId` and `t`. */
export type EventBody = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, 'runId' | 't'> : never) : never;

export interface OrchestratorOutput {
  completion: ChatCompletion;
  reasoning: string;
  message: string;
  calls: ParsedCall[];
  rejected: RejectedCall[];
}

export interface ModelCallOptions {
  callId?: string;
  /** `user`: a τ² conversation's simulated user (its cost is kept apart, ledger kind `user`). */
  kind: 'orchestrator' | 'expert' | 'user';
  alias?: string;
  model: ChatModel;
  request: Omit<ChatRequest, 'signal'>;
}

/** What the loop lends a protocol for one turn. */
export interface TurnContext {
  readonly step: number;
  readonly signal: AbortSignal;
  emit(event: EventBody): void;
  /** Calls a model with streaming deltas reported as events, charges its usage and returns the
   * completion. Rejects with a BackendError on failure, or with RunStop when the run is stopped. */
  callModel(options: ModelCallOptions): Promise<ChatCompletion>;
  /** Settles as `promise` does, or rejects with RunStop the moment the run is stopped, so no
   * tool that ignores its signal can hold a stop up. */
  race<T>(promise: Promise<T>): Promise<T>;
  /** Record a cost on the ledger and report it as a usage event. */
  chargeSearch(charge: { callId: string; latencyMs: number; usd?: number }): void;
  /** `latencyMs` is the whole wait, a sandbox's `startup` included; only `seconds` is charged. */
  chargeCode(charge: { callId: string; seconds: number; latencyMs: number; startup?: SandboxStartup }): void;
  chargeTool(charge: { callId: string; tool: string; latencyMs: number; usd?: number; basis?: CostBasis; startup?: SandboxStartup }): void;
  /** Stops the run and throws RunStop when the cost budget is spent, so no new paid call starts. */
  assertBudget(): void;
  newCallId(): string;
  /** The calls in a completion (parsed by the server and from its text), each with a fresh id. */
  interpret(completion: ChatCompletion): OrchestratorOutput;
}

export type TurnOutcome =
  | { kind: 'continue'; validCall: boolean; invalidReason?: string }
  | { kind: 'done'; stopReason: 'answered' | 'final_message'; answer: string };

export interface ProtocolSession {
  readonly name: ProtocolName;
  /** The tools offered this turn, as listed to the orchestrator. */
  tools(): ToolSchema[];
  /** The orchestrator's messages this turn. */
  messages(): ChatMessage[];
  handleOutput(output: OrchestratorOutput, context: TurnContext): Promise<TurnOutcome>;
  /** Work before a turn's request (a conversation's opening: the simulated user's first
   * message); an outcome ends the run before the orchestrator is asked. */
  beforeTurn?(context: TurnContext): Promise<TurnOutcome | null>;
  /** Rebuilds the session's state after a fork's kept steps, from what they recorded; throws an
   * Error that says why when the record does not allow it. */
  restore(recorded: RecordedSteps): void;
}

/** The steps a fork keeps from its parent: the parent's events of steps 1..throughStep, in
 * order, and the orchestrator's request of the step after, where the parent recorded one. */
export interface RecordedSteps {
  throughStep: number;
  events: readonly RunEvent[];
  nextRequest: RunEventOf<'model_request'> | null;
}

/** Starts a protocol for one task. `instruction` is the preference text (or null). */
export type Protocol = {
  readonly name: ProtocolName;
  start(task: string, instruction: string | null): ProtocolSession;
};

/** Thrown inside a turn to end the run for a reason that is not an error (the budget is spent,
 * the run was stopped). Protocols must let it through. */
export class RunStop extends Error {
  override name = 'RunStop';
  constructor(readonly reason: StopReason) {
    super(`run stopped: ${reason}`);
  }
}

/** What to say in a tool result when the run stopped under it. */
export function stoppedMessage(error: unknown): string {
  const reason = error instanceof RunStop ? error.reason : 'aborted';
  return reason === 'max_cost'
    ? 'Stopped: the cost budget is spent.'
    : reason === 'max_time'
      ? 'Stopped: the time limit was reached.'
      : 'Stopped before it finished.';
}
