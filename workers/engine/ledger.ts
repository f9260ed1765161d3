// Every dollar and second of a run, each marked measured or estimated. A cost whose price is
// unknown stays unknown (usd: null): it is counted, never silently turned into $0.

import type { CostBasis, LedgerEntry } from './events.ts';
import { lookupPrice, priceUsage, type PricingTable } from './pricing.ts';
import type { SandboxStartup, Usage } from './types.ts';

export interface LedgerOptions {
  pricing: PricingTable;
  /** The strongest configured model; expert calls are repriced at its price. */
  counterfactualModel?: string;
  /** Milliseconds since the run started; stamps each entry's `endMs`. */
  clock?: () => number;
}

export interface ModelCallRecord {
  step: number;
  callId?: string;
  kind: 'orchestrator' | 'expert' | 'user';
  model: string;
  alias?: string;
  usage?: Usage;
  /** Tokens we counted ourselves, for when the provider sent no usage. */
  estimatedUsage?: { promptTokens: number; completionTokens: number };
  latencyMs: number;
}

export class Ledger {
  readonly #pricing: PricingTable;
  readonly #counterfactualModel: string | undefined;
  readonly #clock: (() => number) | undefined;
  readonly #entries: LedgerEntry[] = [];

  constructor(options: LedgerOptions) {
    this.#pricing = options.pricing;
    this.#counterfactualModel = options.counterfactualModel;
    this.#clock = options.clock;
  }

  recordModelCall(call: ModelCallRecord): LedgerEntry {
    const usage = call.usage ?? call.estimatedUsage;
    const basis: CostBasis = call.usage ? 'measured' : 'estimated';
    const price = lookupPrice(this.#pricing, call.model);
    const providerCost = call.usage?.costUsd;
    const hasProviderCost = providerCost !== undefined && Number.isFinite(providerCost) && providerCost >= 0;
    const usd = hasProviderCost ? providerCost : usage && price ? priceUsage(price, usage) : null;
    const entry: LedgerEntry = {
      step: call.step,
      kind: call.kind,
      model: call.model,
      usd,
      basis,
      source: hasProviderCost ? 'provider' : 'pricing',
      latencyMs: call.latencyMs,
    };
    if (call.callId !== undefined) entry.callId = call.callId;
    if (call.alias !== undefined) entry.alias = call.alias;
    if (usage) entry.usage = { ...usage };
    if (call.kind === 'expert') entry.counterfactualUsd = this.#counterfactualPrice(usage);
    return this.#add(entry);
  }

  /** Charged at the table's per-second rate, so always an estimate. `seconds` is the code's own
   * run time; a sandbox's start-up is in `latencyMs` (and `startup`) but not charged. */
  recordCodeExecution(call: { step: number; callId?: string; seconds: number; latencyMs: number; startup?: SandboxStartup }): LedgerEntry {
    return this.#add(
      withStartup(
        withCallId(
          {
            step: call.step,
            kind: 'code',
            usd: this.#pricing.codePerSecond * call.seconds,
            basis: 'estimated',
            source: 'rate',
            latencyMs: call.latencyMs,
          },
          call.callId,
        ),
        call.startup,
      ),
    );
  }

  /** Charged per call at the table's rate unless the caller knows the cost (a local corpus
   * search passes `usd: 0`). */
  recordSearch(call: { step: number; callId?: string; calls?: number; latencyMs: number; usd?: number }): LedgerEntry {
    const known = call.usd !== undefined;
    return this.#add(
      withCallId(
        {
          step: call.step,
          kind: 'search',
          usd: call.usd ?? this.#pricing.searchPerCall * (call.calls ?? 1),
          basis: known ? 'measured' : 'estimated',
          source: known ? 'provider' : 'rate',
          latencyMs: call.latencyMs,
        },
        call.callId,
      ),
    );
  }

  /** Client tools cost what they report, else nothing (they run on the user's machine). A tool
   * that prices itself at a rate (code per second) says its figure is an estimate. */
  recordTool(call: {
    step: number;
    callId?: string;
    tool: string;
    usd?: number;
    basis?: CostBasis;
    latencyMs: number;
    startup?: SandboxStartup;
  }): LedgerEntry {
    return this.#add(
      withStartup(
        withCallId(
          {
            step: call.step,
            kind: 'tool',
            tool: call.tool,
            usd: call.usd ?? 0,
            basis: call.basis ?? 'measured',
            source: call.usd === undefined || call.basis === 'estimated' ? 'rate' : 'provider',
            latencyMs: call.latencyMs,
          },
          call.callId,
        ),
        call.startup,
      ),
    );
  }

  /** An entry recorded by an earlier run, kept as it was (a fork's recorded steps cost what they cost). */
  restore(entry: LedgerEntry): LedgerEntry {
    this.#entries.push({ ...entry });
    return entry;
  }

  get entries(): readonly LedgerEntry[] {
    return this.#entries;
  }

  /** The sum of every known cost; unknown ones are counted by `unknownCount`. */
  totalUsd(): number {
    return sumKnown(this.#entries);
  }

  /** What the simulated user's model calls cost (τ² conversations). */
  userUsd(): number {
    return sumKnown(this.#entries.filter((entry) => entry.kind === 'user'));
  }

  unknownCount(): number {
    return this.#entries.filter((entry) => entry.usd === null).length;
  }

  /** True when some figure inside `totalUsd` is an estimate. */
  hasEstimates(): boolean {
    return this.#entries.some((entry) => entry.usd !== null && entry.basis === 'estimated');
  }

  stepUsd(step: number): number {
    return sumKnown(this.#entries.filter((entry) => entry.step === step));
  }

  /** Expert calls repriced at the counterfactual model's price with the same tokens, every
   * other entry as it was; null when any figure it needs is unknown. */
  counterfactualUsd(): number | null {
    if (this.#counterfactualModel === undefined) return null;
    let total = 0;
    for (const entry of this.#entries) {
      const usd = entry.kind === 'expert' ? entry.counterfactualUsd : entry.usd;
      if (usd === null || usd === undefined) return null;
      total += usd;
    }
    return total;
  }

  #counterfactualPrice(usage: Usage | undefined): number | null {
    if (this.#counterfactualModel === undefined || !usage) return null;
    const price = lookupPrice(this.#pricing, this.#counterfactualModel);
    return price ? priceUsage(price, usage) : null;
  }

  #add(entry: LedgerEntry): LedgerEntry {
    const stamped = this.#clock ? { ...entry, endMs: Math.round(this.#clock()) } : entry;
    this.#entries.push(stamped);
    return stamped;
  }
}

function withCallId(entry: LedgerEntry, callId: string | undefined): LedgerEntry {
  return callId === undefined ? entry : { ...entry, callId };
}

/** A start-up of some milliseconds is recorded; none (or 0 ms) leaves the entry as it was. */
function withStartup(entry: LedgerEntry, startup: SandboxStartup | undefined): LedgerEntry {
  return startup && startup.ms > 0 ? { ...entry, startup: { sandbox: startup.sandbox, ms: Math.round(startup.ms) } } : entry;
}

function sumKnown(entries: readonly LedgerEntry[]): number {
  return entries.reduce((total, entry) => total + (entry.usd ?? 0), 0);
}

/** The most expensive (input + output per million) of the given models whose price is known. */
export function pickCounterfactualModel(models: string[], table: PricingTable): string | undefined {
  let best: { model: string; perM: number } | undefined;
  for (const model of models) {
    const price = lookupPrice(table, model);
    if (!price) continue;
    const perM = price.inputPerM + price.outputPerM;
    if (!best || perM > best.perM) best = { model, perM };
  }
  return best?.model;
}

