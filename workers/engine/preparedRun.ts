// A run made ready from a config: what the composition root (workers/hosts/prepareRun.ts) hands
// a host, and what evaluation asks its host for (workers/eval/ports.ts). Types only.

import type { OrchestraConfig } from './config.ts';
import type { PreferenceVector } from './preferences.ts';
import type { PricingTable } from './pricing.ts';
import type { Protocol } from './protocol.ts';
import type { OrchestratorOptions, RunLimits } from './run.ts';
import type { Secret } from './redact.ts';
import type { ConversationPartner } from './ports.ts';
import type { ChatModel, Tool } from './types.ts';

/** The parts of one run. Prepare again for every run, rollout or task: the models made here may
 * keep their run's state (the scripted demo's orchestrator counts its searches), so parts shared
 * by two runs make each depend on what the other did. */
export interface PreparedRun {
  protocol: Protocol;
  orchestrator: OrchestratorOptions;
  pricing: PricingTable;
  counterfactualModel: string | undefined;
  limits: RunLimits;
  preference: PreferenceVector;
  instruction: string | null;
  /** The config the run was prepared from, recorded in its run_started event. */
  config: OrchestraConfig;
  /** The keys its models were given: the run redacts them from everything it emits. */
  secrets: Secret[];
}

/** A domain environment's tools and policy (workers/domains/): the run uses the function-calling
 * protocol over them, with the config's `call_expert` experts, whatever the config's protocol. */
export interface DomainTools {
  system: string;
  tools: Tool[];
  /** Offer the config's `call_expert` experts (default true; false for a model acting alone). */
  experts?: boolean;
  /** The conversation's user (τ²): see FunctionCallingOptions.partner. */
  partner?: ConversationPartner;
  /** Orchestrator turns allowed instead of the config's (a τ² conversation's own step limit
   * governs it). */
  maxTurns?: number;
}

export interface PrepareOptions {
  domain?: DomainTools;
  /** A person takes the orchestrator's turns (humanOrchestrator.ts): the config's orchestrator
   * is not created (no key or loaded model needed); the person's turns cost nothing. Paper
   * protocol only. */
  person?: ChatModel;
  /** The suite task's id, when the run is one: a `retrieval` search sends it as the reference's
   * `eid` (its server keeps each task's own candidate documents by it). */
  taskId?: string;
}
