// Pure edits of the config draft that put a model loaded in this browser to work: as the
// orchestrator, or behind an expert alias, each with a sentence saying what changed. Both go
// through one provider of the model's backend kind (`webllm`, which a user's converted weights are
// listed under, or `gguf`), named as the kind's descriptor says ("local", "gguf") when it is added.

import { backendKind } from '../../../workers/backends/registry.ts';
import { webLlmKind } from '../../../workers/backends/webllm/kind.ts';
import { PAPER_TOOLS } from '../../../workers/engine/configBasics.ts';
import { PAPER_EXPERTS_PRESET } from '../../../workers/engine/presets.ts';
import type { LocalModelRequest } from '../../../workers/hosts/models/modelState.ts';
import type { ConfigDraft } from '../../state/setupStore.ts';

type ExpertsDraft = Exclude<ConfigDraft['experts'], 'paper'>;
type ExpertTool = ExpertsDraft[string]['tool'];

export interface AliasChoice {
  /** `alias:<name>` for an existing alias, `new:<tool>` for a new one. */
  value: string;
  label: string;
}

function experts(draft: ConfigDraft): ExpertsDraft {
  return draft.experts === 'paper' ? PAPER_EXPERTS_PRESET : draft.experts;
}

function usesFunctionCalling(draft: ConfigDraft): boolean {
  return draft.protocol === 'function-calling';
}

/** The aliases the draft's protocol calls, and new ones the model could take. */
export function aliasChoices(draft: ConfigDraft): AliasChoice[] {
  const fc = usesFunctionCalling(draft);
  const existing = Object.entries(experts(draft))
    .filter(([, expert]) => (expert.tool === 'call_expert') === fc)
    .map(([alias, expert]) => ({ value: `alias:${alias}`, label: `${alias} (${expert.tool}, now ${expert.model})` }));
  const tools: ExpertTool[] = fc ? ['call_expert'] : [...PAPER_TOOLS];
  return [...existing, ...tools.map((tool) => ({ value: `new:${tool}`, label: `a new ${tool} alias` }))];
}

const ALIAS_PREFIX: Record<ExpertTool, string> = {
  search: 'search',
  enhance_reasoning: 'reasoner',
  answer: 'answer',
  call_expert: 'expert',
};

function freeAlias(taken: ExpertsDraft, tool: ExpertTool): string {
  let n = 1;
  while (`${ALIAS_PREFIX[tool]}-${n}` in taken) n++;
  return `${ALIAS_PREFIX[tool]}-${n}`;
}

/** The draft's provider of this backend kind, added when there is none, with the custom weights listed. */
function withLocalProvider(draft: ConfigDraft, model: LocalModelRequest, kind: string): { draft: ConfigDraft; provider: string } {
  const providers = draft.providers;
  let name = Object.keys(providers).find((key) => providers[key]?.kind === kind);
  if (!name) {
    const base = backendKind(kind)?.providerName ?? kind;
    name = base;
    for (let n = 2; name in providers; n++) name = `${base}-${n}`;
  }
  const provider = providers[name] ?? { kind };
  const next = model.custom
    ? {
        ...provider,
        models: {
          ...provider.models,
          [model.id]: {
            weightsUrl: model.custom.weightsUrl,
            ...(model.custom.quantization ? { quantization: model.custom.quantization } : {}),
            ...(model.custom.modelLibUrl ? { modelLibUrl: model.custom.modelLibUrl } : {}),
          },
        },
      }
    : provider;
  return { draft: { ...draft, providers: { ...providers, [name]: next } }, provider: name };
}

/** The model becomes the orchestrator (web-llm takes no tools for Qwen3, so toolMode "prompt"). */
export function asOrchestrator(draft: ConfigDraft, model: LocalModelRequest, kind: string = webLlmKind.kind): ConfigDraft {
  const { draft: next, provider } = withLocalProvider(draft, model, kind);
  return { ...next, orchestrator: { ...next.orchestrator, provider, model: model.id, toolMode: 'prompt' } };
}

/** The model answers behind an alias (its tool and description kept), or behind a new one. */
export function asExpert(draft: ConfigDraft, choice: string, model: LocalModelRequest, label: string, kind: string = webLlmKind.kind): ConfigDraft {
  const { draft: next, provider } = withLocalProvider(draft, model, kind);
  const current = experts(next);
  if (choice.startsWith('alias:')) {
    const alias = choice.slice('alias:'.length);
    const expert = current[alias];
    if (!expert) return draft;
    // What followed the old model's family goes, so the new model's family defaults apply: the
    // answer style (Qwen answers in \boxed{}), the reply length, what of the context it is shown.
    const {
      answerStyle: _style,
      maxTokens: _maxTokens,
      documentChars: _documentChars,
      codeContextTokens: _codeContextTokens,
      contextTokens: _contextTokens,
      ...kept
    } = expert;
    return { ...next, experts: { ...current, [alias]: { ...kept, provider, model: model.id } } };
  }
  const tool = choice.slice('new:'.length) as ExpertTool;
  if (!isTool(tool)) return draft;
  const alias = freeAlias(current, tool);
  return {
    ...next,
    experts: { ...current, [alias]: { tool, provider, model: model.id, description: `runs in this browser (${label}).` } },
  };
}

/** What an edit changed, in a sentence: the orchestrator, or the aliases now calling `modelId`. */
export function describeUse(before: ConfigDraft, after: ConfigDraft, modelId: string): string {
  const added = Object.keys(after.providers).filter((name) => !(name in before.providers));
  const provider = added.length > 0 ? ` (through the new provider “${added[0]}”)` : '';
  if (after.orchestrator.model === modelId && after.orchestrator !== before.orchestrator) {
    return `Setup changed: the orchestrator is now ${modelId}${provider}, its tools written into its prompt.`;
  }
  const was = experts(before);
  const changed = Object.entries(experts(after)).filter(([alias, expert]) => expert.model === modelId && was[alias]?.model !== modelId);
  if (changed.length === 0) return 'Setup is unchanged: it already uses this model there.';
  const [alias, expert] = changed[0]!;
  const old = was[alias];
  return old
    ? `Setup changed: alias ${alias} (${expert.tool}) now calls ${modelId}${provider}, in place of ${old.model}.`
    : `Setup changed: the new alias ${alias} (${expert.tool}) calls ${modelId}${provider}.`;
}

function isTool(value: string): value is ExpertTool {
  return value === 'call_expert' || (PAPER_TOOLS as readonly string[]).includes(value);
}

/** The converted weights a draft lists under a provider whose kind takes them (webllm), to fill the custom row. */
export function customWeightsInDraft(
  draft: ConfigDraft,
): { id: string; weightsUrl: string; quantization?: 'q4f16_1' | 'q4f32_1'; modelLibUrl?: string } | undefined {
  for (const provider of Object.values(draft.providers)) {
    if (!takesModels(provider.kind) || !provider.models) continue;
    const [id, weights] = Object.entries(provider.models)[0] ?? [];
    if (id && weights) {
      return {
        id,
        weightsUrl: weights.weightsUrl,
        ...(weights.quantization ? { quantization: weights.quantization } : {}),
        ...(weights.modelLibUrl ? { modelLibUrl: weights.modelLibUrl } : {}),
      };
    }
  }
  return undefined;
}

/** Whether a provider of this kind may list models of its own (its descriptor leaves `models` in use). */
function takesModels(kind: string): boolean {
  const found = backendKind(kind);
  return found !== undefined && found.unusedFields?.models === undefined;
}
