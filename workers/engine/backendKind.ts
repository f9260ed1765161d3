// A backend kind: how a provider entry of the config becomes chat models (docs/architecture.md,
// "Registries"). Each kind is one folder, workers/backends/<kind>/, whose kind.ts exports this
// descriptor, listed in workers/backends/registry.ts: what its provider entries may say, where it
// runs, what it needs from the host, and (loaded only when a config names it) how it makes models.

import type { ProviderConfig, ProviderKindRules } from './config.ts';
import type { ChatModel } from './types.ts';

/** A model made for a run; `contextWindow` when it runs in this browser with a fixed window that
 * the run must fit into. */
export interface ProvidedModel {
  model: ChatModel;
  contextWindow?: number;
}

/** A model loaded in this browser (web-llm, llama.cpp), with the context window it was loaded with. */
export type LocalChatModel = Required<ProvidedModel>;

/** What making one model needs: the provider entry, its key, and the host's parts. */
export interface ModelRequest {
  providerName: string;
  provider: ProviderConfig;
  model: string;
  /** The provider's key when the kind needs one and the host holds one. Never logged. */
  apiKey: string | undefined;
  fetch?: typeof fetch;
  /** The models loaded in this browser, for a kind whose models run here; absent in the CLI. */
  localModel?(modelId: string, providerName: string, provider: ProviderConfig): LocalChatModel;
}

/** A kind's model factory: its own module, loaded when a config names the kind. */
export interface BackendModels {
  create(request: ModelRequest): ProvidedModel;
}

export interface BackendKind extends ProviderKindRules {
  /** In words, after "is": "an OpenAI-compatible provider", "the scripted demo". */
  title: string;
  /** Its name where a person picks a kind (Setup): "Anthropic", "In this browser (web-llm)". */
  label: string;
  /** Where its models can be made: the browser only (a model worker), or the CLI too. */
  runsIn: 'browser' | 'node' | 'both';
  /** Its models run on the user's device: they cost $0 unless the config prices them. */
  onDevice: boolean;
  /** What it needs from the host. */
  needs: {
    /** A key per provider (Setup, or the variable `apiKeyEnv` names), sent to its base URL. */
    apiKey: boolean;
    /** Where requests go when the provider names no base URL. */
    defaultBaseUrl?: string;
    /** A base URL Setup shows as an example, and gives a new provider when the kind requires one. */
    exampleBaseUrl?: string;
    /** Whom the worker that calls it connects to: the provider's base URL (any http(s) origin a
     * config names: the orchestrator worker's Content-Security-Policy allows them), or nobody. */
    connects: 'base-url' | 'none';
    /** A cheap request that tells whether the endpoint at `baseUrl` is there (any answer counts),
     * sent once before an evaluation's first rollout: a kind that connects says how to ask it. */
    probe?(baseUrl: string): { url: string; headers?: Record<string, string> };
  };
  /** What Setup says of a provider of this kind in place of a base URL, when it connects to nobody. */
  setupNote?: string;
  /** The name Models gives the provider it adds for a model loaded here, for a kind whose models
   * run in this browser. */
  providerName?: string;
  load(): Promise<BackendModels>;
}

/** A kind whose model factory a host has loaded (workers/backends/registry.ts's loadBackends). */
export interface LoadedBackend extends BackendModels {
  kind: BackendKind;
}

/** A model that runs in this browser, from the host's loaded models; the CLI has none, and says
 * so (`engine` and `family` in words: "web-llm on WebGPU", "web-llm"). */
export function inBrowserModel(request: ModelRequest, engine: string, family: string): ProvidedModel {
  if (!request.localModel) {
    throw new Error(
      `Provider "${request.providerName}" runs "${request.model}" in the browser (${engine}), and ${family} models run only in the browser: open the playground, or use a remote provider here.`,
    );
  }
  return request.localModel(request.model, request.providerName, request.provider);
}

/** How an in-browser kind is named: `title` and `label` as BackendKind's, `engine` and `family`
 * in inBrowserModel's words, and what Models calls the provider it adds (`providerName`). */
export interface InBrowserWords extends Pick<BackendKind, 'title' | 'label' | 'setupNote'> {
  engine: string;
  family: string;
  providerName: string;
}

/** A kind whose models run in this browser and come from the host's loaded models, at $0, with no
 * endpoint or key (web-llm's and llama.cpp's): its name and words, and what its entries may say. */
export function inBrowserKind(kind: string, words: InBrowserWords, rules: Omit<ProviderKindRules, 'kind'>): BackendKind {
  const { engine, family, ...named } = words;
  const create = (request: ModelRequest) => inBrowserModel(request, engine, family);
  return { kind, ...named, runsIn: 'browser', onDevice: true, needs: { apiKey: false, connects: 'none' }, ...rules, load: async () => ({ create }) };
}
