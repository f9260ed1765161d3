// Pure edits of the config draft (the file the CLI reads, as written). Each returns a new draft;
// the panel hands it to setupActions.setDraft. Nothing here can add a key: the format has no field
// for one, and the API-key env var name (`apiKeyEnv`) is kept as imported, never edited.

import { CONFIG_LIMITS } from '../../../workers/engine/configBasics.ts';
import { lookupPrice, type PricingTable } from '../../../workers/engine/pricing.ts';
import { PAPER_EXPERTS_PRESET } from '../../../workers/engine/presets.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';
import { freshProvider } from './providerKinds.ts';

export type ProviderDraft = ConfigDraft['providers'][string];
export type OrchestratorDraft = ConfigDraft['orchestrator'];
export type ExpertsDraft = Exclude<ConfigDraft['experts'], 'paper'>;
export type ExpertDraft = ExpertsDraft[string];
export type PricingDraft = NonNullable<ConfigDraft['pricing']>;
export type ModelPriceDraft = NonNullable<PricingDraft['models']>[string];
export type ToolName = ExpertDraft['tool'];

export const TOOL_NAMES: readonly ToolName[] = ['search', 'enhance_reasoning', 'answer', 'call_expert'];

/** The providers the paper's preset calls, as the documented example defines them. */
const PAPER_PROVIDERS: Record<'openai' | 'open-models', ProviderDraft> = {
  openai: {
    kind: 'openai-compatible',
    baseUrl: 'https://api.openai.com/v1',
    apiKeyEnv: 'OPENAI_API_KEY',
    maxTokensField: 'max_completion_tokens',
  },
  'open-models': { kind: 'openai-compatible', baseUrl: 'http://localhost:8001/v1' },
};

/** Copies `patch` over `base`; a key set to undefined is removed, so the schema's default applies. */
function merged<T extends object>(base: T, patch: Partial<T>): T {
  const result: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(patch)) {
    if (value === undefined) delete result[key];
    else result[key] = value;
  }
  return result as T;
}

function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** The experts per alias, with the paper preset written out. */
export function resolvedExperts(draft: ConfigDraft): ExpertsDraft {
  return draft.experts === 'paper' ? PAPER_EXPERTS_PRESET : draft.experts;
}

/** Every model the draft can call: the orchestrator's first, then the experts' in alias order. */
export function modelsInUse(draft: ConfigDraft): string[] {
  const models = [draft.orchestrator.model, ...Object.values(resolvedExperts(draft)).map((expert) => expert.model)];
  return [...new Set(models.map((model) => model.trim()).filter((model) => model !== ''))];
}

/** Why a new provider or alias name cannot be used, or null when it can. */
export function nameProblem(name: string, taken: readonly string[]): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'Give it a name.';
  if (trimmed === '__proto__') return '"__proto__" is reserved in JavaScript: choose another name.';
  if (trimmed.length > CONFIG_LIMITS.nameChars) return `A name may be at most ${CONFIG_LIMITS.nameChars} characters.`;
  if (taken.includes(trimmed)) return `"${trimmed}" is already used.`;
  return null;
}

export function addProvider(draft: ConfigDraft, name: string, kind: ProviderDraft['kind']): ConfigDraft {
  return { ...draft, providers: { ...draft.providers, [name.trim()]: freshProvider(kind) } };
}

/** A provider of another kind starts afresh: the kinds' fields differ (a browser model has no endpoint). */
export function changeProviderKind(draft: ConfigDraft, name: string, kind: ProviderDraft['kind']): ConfigDraft {
  if (draft.providers[name]?.kind === kind) return draft;
  return { ...draft, providers: { ...draft.providers, [name]: freshProvider(kind) } };
}

export function updateProvider(draft: ConfigDraft, name: string, patch: Partial<ProviderDraft>): ConfigDraft {
  const provider = draft.providers[name];
  if (!provider) return draft;
  return { ...draft, providers: { ...draft.providers, [name]: merged(provider, patch) } };
}

/** Removes a provider. Whatever still names it is reported by the draft check, not rewritten. */
export function removeProvider(draft: ConfigDraft, name: string): ConfigDraft {
  return { ...draft, providers: without(draft.providers, name) };
}

export function updateOrchestrator(draft: ConfigDraft, patch: Partial<OrchestratorDraft>): ConfigDraft {
  return { ...draft, orchestrator: merged(draft.orchestrator, patch) };
}

/** The paper's alias → model mapping, adding the two providers it needs when they are missing. */
export function withPaperExperts(draft: ConfigDraft): ConfigDraft {
  return { ...draft, experts: 'paper', providers: { ...PAPER_PROVIDERS, ...draft.providers } };
}

/** Writes the paper preset out alias by alias so each can be edited. */
export function expandPaperExperts(draft: ConfigDraft): ConfigDraft {
  if (draft.experts !== 'paper') return draft;
  return { ...draft, experts: structuredClone(PAPER_EXPERTS_PRESET) };
}

export function addExpert(draft: ConfigDraft, alias: string, tool: ToolName): ConfigDraft {
  const experts = resolvedExperts(draft);
  const provider = draft.orchestrator.provider || Object.keys(draft.providers)[0] || '';
  return { ...draft, experts: { ...experts, [alias.trim()]: { tool, provider, model: '' } } };
}

export function updateExpert(draft: ConfigDraft, alias: string, patch: Partial<ExpertDraft>): ConfigDraft {
  const experts = resolvedExperts(draft);
  const expert = experts[alias];
  if (!expert) return draft;
  return { ...draft, experts: { ...experts, [alias]: merged(expert, patch) } };
}

export function removeExpert(draft: ConfigDraft, alias: string): ConfigDraft {
  return { ...draft, experts: without(resolvedExperts(draft), alias) };
}

export type PriceField = keyof ModelPriceDraft;
export type PriceSource = 'config' | 'reference' | 'unknown';

export interface PriceRow {
  model: string;
  /** The prices the run will use for this model, or undefined when unknown. */
  price: ModelPriceDraft | undefined;
  source: PriceSource;
}

/** The table a run prices with: the config's prices laid over the reference table. */
function effectiveTable(draft: ConfigDraft, reference: PricingTable): PricingTable {
  return { ...reference, models: { ...reference.models, ...draft.pricing?.models } };
}

/** Each model in use with the price the engine will find for it, and where that price comes from. */
export function priceRows(draft: ConfigDraft, reference: PricingTable): PriceRow[] {
  const own = Object.values(draft.pricing?.models ?? {});
  const effective = effectiveTable(draft, reference);
  return modelsInUse(draft).map((model) => {
    const price = lookupPrice(effective, model);
    if (!price) return { model, price: undefined, source: 'unknown' };
    // lookupPrice returns the table's own entry object, so identity tells which table it came from.
    return { model, price, source: own.includes(price) ? 'config' : 'reference' };
  });
}

function pricingOf(draft: ConfigDraft, today: string): PricingDraft {
  return draft.pricing ?? { asOf: today };
}

/**
 * Sets one price of a model (undefined clears it). A model priced only by the reference table
 * starts from the reference's prices, so changing one figure keeps the others.
 */
export function setModelPrice(
  draft: ConfigDraft,
  reference: PricingTable,
  model: string,
  field: PriceField,
  value: number | undefined,
  today: string,
): ConfigDraft {
  const pricing = pricingOf(draft, today);
  const models = pricing.models ?? {};
  const current = models[model] ?? lookupPrice(effectiveTable(draft, reference), model);
  const next = merged<Partial<ModelPriceDraft>>({ ...current }, { [field]: value });
  const nextModels =
    Object.keys(next).length === 0 ? without(models, model) : { ...models, [model]: next as ModelPriceDraft };
  return { ...draft, pricing: { ...pricing, models: nextModels } };
}

/** Drops the config's own price for a model, so the reference table (or unknown) applies again. */
export function clearModelPrice(draft: ConfigDraft, model: string): ConfigDraft {
  if (!draft.pricing?.models?.[model]) return draft;
  return { ...draft, pricing: { ...draft.pricing, models: without(draft.pricing.models, model) } };
}

export function setPricingField(
  draft: ConfigDraft,
  patch: Partial<Pick<PricingDraft, 'asOf' | 'codePerSecond' | 'searchPerCall'>>,
  today: string,
): ConfigDraft {
  return { ...draft, pricing: merged(pricingOf(draft, today), patch) };
}

/** Today's date as YYYY-MM-DD in local time (a price table's "as of"). */
export function localDate(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** "providers.vllm.baseUrl: must be…" → the field path and the message. */
export function splitProblem(problem: string): { field: string; message: string } {
  const match = /^((?:\(top level\)|[A-Za-z$][\w$]*)(?:\.[^:]*)?): (.*)$/s.exec(problem);
  if (!match?.[1] || match[2] === undefined) return { field: '', message: problem };
  return { field: match[1], message: match[2] };
}

/** The problems whose field is `path` or lies under it (`experts` also gets `experts.a.model`). */
export function problemsUnder(problems: readonly string[], path: string, exact = false): string[] {
  return problems
    .map(splitProblem)
    .filter(({ field }) => field === path || (!exact && field.startsWith(`${path}.`)))
    .map(({ message }) => message);
}

/** A number input's value: empty means "not set". */
export function parseNumberInput(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}
