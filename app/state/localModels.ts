// What the Models panel's controls do: probe this browser's WebGPU, load, cancel, unload and
// delete models in this browser (each in its own model worker, driven by the orchestrator worker),
// and take the worker's account of them. The models store only holds state.

import { assessWebGpu, probeWebGpu } from '../../workers/backends/webllm/capabilities.ts';
import { addressesOutsideCatalogue, type ForeignAddress } from '../../workers/backends/webllm/catalogue.ts';
import type { LoadProgress } from '../../workers/backends/webllm/loadProgress.ts';
import { storageEstimate } from '../../workers/backends/webllm/modelCache.ts';
import type { ModelCacheReply } from '../../workers/hosts/messages.ts';
import type { GgufModelRequest, LocalModelRequest, LocalModelsState } from '../../workers/hosts/models/modelState.ts';
import type { ModelsStore } from './modelsStore.ts';
import type { SetupStore } from './setupStore.ts';
import type { WorkerClient } from './workerClient.ts';

export class LocalModels {
  /** What each local model was loaded from, by id (custom weights need their URL). */
  private readonly loadRequests = new Map<string, LocalModelRequest>();
  private probing: Promise<void> | null = null;

  constructor(private readonly deps: { models: ModelsStore; setup: SetupStore; worker: WorkerClient }) {}

  // What the worker says about models unasked (appStores.ts routes its messages here).

  progress(modelId: string, progress: LoadProgress): void {
    this.deps.models.actions.progress(modelId, progress);
  }

  modelState(state: LocalModelsState): void {
    const before = new Set(this.deps.models.getState().loaded.map((model) => model.id));
    this.deps.models.actions.modelState(state);
    // A model just loaded has its files in the cache now: web-llm's own check says so.
    this.checkModelCache(state.loaded.filter((model) => !before.has(model.id)).flatMap((model) => this.loadRequests.get(model.id) ?? []));
    this.refreshStorageEstimate();
  }

  private cache(cached: Record<string, boolean>, problem: string | undefined): void {
    this.deps.models.actions.cache(cached, problem);
    this.refreshStorageEstimate();
  }

  workerFailed(modelId: string, message: string): void {
    this.deps.models.actions.workerFailed(modelId, message);
  }

  /** The orchestrator worker was lost, and with it every model it drove. */
  workerLost(): void {
    this.deps.models.actions.workerLost();
  }

  // What the Models panel asks.

  /** Asks this browser's WebGPU what it can do, once; the answer goes to the models store. */
  checkBrowserCapabilities = (): void => {
    this.probing ??= probeWebGpu().then((probe) => this.deps.models.actions.probed(probe, assessWebGpu(probe)));
  };

  refreshStorageEstimate = (): void => {
    void storageEstimate().then((storage) => this.deps.models.actions.storage(storage));
  };

  /** The addresses outside the catalogue a model would load from that the user has not agreed to. */
  untrustedAddresses = (model: LocalModelRequest): ForeignAddress[] => {
    const trusted = this.deps.setup.getState().trustedAddresses;
    return addressesOutsideCatalogue(model.custom).filter((address) => !trusted.includes(address.url));
  };

  /** Loads a model in this browser: its own model worker, driven by the orchestrator worker. A model
   * whose files come from outside the catalogue loads only once the user has agreed to each address
   * (the Models panel asks, and calls trustAddresses). */
  loadLocalModel = (model: LocalModelRequest, contextWindow: number): void => {
    const unconfirmed = this.untrustedAddresses(model);
    if (unconfirmed.length > 0) {
      this.deps.models.actions.workerFailed(
        model.id,
        `Not loaded: confirm first that you trust ${unconfirmed.map((address) => address.url).join(' and ')}.`,
      );
      return;
    }
    this.deps.models.actions.loadRequested(model.id);
    this.loadRequests.set(model.id, model);
    this.deps.worker.loadModel(model, contextWindow);
  };

  /** Loads a GGUF model with llama.cpp in its own model worker (the Models panel asked first for a
   * download). */
  loadGgufModel = (request: GgufModelRequest): void => {
    this.deps.models.actions.loadRequested(request.id);
    this.deps.worker.loadGgufModel(request);
  };

  cancelLocalModelLoad = (modelId: string): void => this.deps.worker.tell('cancel_load', { modelId });

  unloadLocalModel = (modelId: string): void => this.deps.worker.tell('unload_model', { modelId });

  /** Asks which of these models' files the browser has cached (web-llm reads its own cache). */
  checkModelCache = (models: LocalModelRequest[]): void => {
    if (models.length > 0) this.askCache(this.deps.worker.request('check_model_cache', { models }));
  };

  deleteCachedModel = (model: LocalModelRequest): void => this.askCache(this.deps.worker.request('delete_cached_model', { model }));

  /** The worker's word on the cache, once it comes (none from a worker that was lost). */
  private askCache(reply: Promise<ModelCacheReply>): void {
    reply.then(
      ({ cached, problem }) => this.cache(cached, problem),
      () => {},
    );
  }
}
