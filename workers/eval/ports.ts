// What evaluation needs from its host, as interfaces the host implements: runs prepared from a
// config (the composition root, workers/hosts/prepareRun.ts, through its `runFactory`) and the
// domains a suite's tasks run in (workers/domains/ implements them). Evaluation imports neither.

import type { OrchestraConfig } from '../engine/config.ts';
import type { PreparedRun, PrepareOptions } from '../engine/preparedRun.ts';
import type { PricingTable } from '../engine/pricing.ts';
import type { ConversationPartner } from '../engine/ports.ts';
import type { ChatModel, Tool } from '../engine/types.ts';
import type { DatabaseComparison, Verdict } from './checks.ts';
import type { SuiteTask } from './suite.ts';

/** Makes runs and models of a config, as every other run gets them. */
export interface RunFactory {
  prepare(config: OrchestraConfig, options?: PrepareOptions): PreparedRun;
  /** One chat model of the config (a judge, an expert answering alone). */
  model(config: OrchestraConfig, provider: string, model: string): ChatModel;
  /** The prices runs of the config pay. */
  pricing(config: OrchestraConfig): PricingTable;
}

/** One rollout's copy of a domain: its database and the tools that read and change it. */
export interface TaskDomainSession {
  readonly tools: Tool[];
  /** The user the run talks with (τ²'s simulated user): the run is a conversation that goes on
   * past the agent's messages until the user or a limit ends it. */
  readonly partner?: ConversationPartner;
  /** The orchestrator turns such a conversation may take (τ²'s step limit governs it). */
  readonly maxTurns?: number;
  /** Grades the rollout by the domain's own criteria (τ²'s), instead of the task's check. */
  grade?(signal: AbortSignal): Promise<Verdict>;
}

/** The golden state a domain task should end with, or why it cannot be worked out. */
export type GoldenStateResult = { ok: true } | { ok: false; error: string };

/** A domain a suite's tasks run in (workers/domains/environment.ts). */
export interface TaskDomain {
  readonly domain: { readonly name: string; readonly policy: string };
  /** One rollout's session; a conversation domain (τ²) needs the task to play its user. */
  newSession(task?: SuiteTask): TaskDomainSession;
  goldenState(task: SuiteTask): Promise<GoldenStateResult>;
  /** What a db check compares: this session's database against the task's golden state. */
  comparison(task: SuiteTask, session: TaskDomainSession): DatabaseComparison;
}
