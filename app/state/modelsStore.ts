// Models in this browser: what the GPU can do (probed on the page), which models are loaded or
// loading (mirrored from the orchestrator worker, which holds them), which are in the browser
// cache, and the choices made in the Models panel. Only app/state/session.ts and tests change it.

import type { StoreApi } from 'zustand/vanilla';
import { makeStore, plainStore, type StoreWithActions } from './storeKit.ts';
import type { WebGpuProbe, WebGpuReport } from '../../workers/backends/webllm/capabilities.ts';
import type { Quantization } from '../../workers/backends/webllm/catalogue.ts';
import type { LoadProgress } from '../../workers/backends/webllm/loadProgress.ts';
import type { StorageUse } from '../../workers/backends/webllm/modelCache.ts';
import type { LoadedLocalModel, LocalModelsState } from '../../workers/hosts/models/modelState.ts';

export interface ModelFailure {
  code: string;
  message: string;
}

export interface ModelsState {
  /** null while the probe runs. */
  capability: { probe: WebGpuProbe; report: WebGpuReport } | null;
  loaded: LoadedLocalModel[];
  /** Models loading, with their latest progress (null before the first report). */
  loading: Record<string, LoadProgress | null>;
  /** The last failure of each model, until it is loaded again. */
  failures: Record<string, ModelFailure>;
  /** Whether each model's files are in the browser cache, once asked. */
  cached: Record<string, boolean>;
  cacheProblem: string | null;
  storage: StorageUse | null;
  /** The context window chosen for each model (tokens). */
  contextWindows: Record<string, number>;
  /** The user's converted Orchestrator-8B weights, as typed (or as the config names them);
   * `modelLibUrl` '' means web-llm's prebuilt Qwen3-8B library. */
  custom: { weightsUrl: string; quantization: Quantization; modelLibUrl: string };
}

const initialState: ModelsState = {
  capability: null,
  loaded: [],
  loading: {},
  failures: {},
  cached: {},
  cacheProblem: null,
  storage: null,
  contextWindows: {},
  custom: { weightsUrl: '', quantization: 'q4f16_1', modelLibUrl: '' },
};



function without<T>(record: Record<string, T>, key: string): Record<string, T> {
  const { [key]: _removed, ...rest } = record;
  return rest;
}

/** The store after the worker's account of its models. */
export function applyModelState(state: ModelsState, next: LocalModelsState): Partial<ModelsState> {
  const loading: Record<string, LoadProgress | null> = {};
  for (const id of next.loading) loading[id] = state.loading[id] ?? null;
  const update: Partial<ModelsState> = { loaded: next.loaded, loading };
  const failure = next.failure;
  if (failure) update.failures = { ...state.failures, [failure.modelId]: { code: failure.code, message: failure.message } };
  return update;
}

type Store = StoreApi<ModelsState>;

const modelsActions = {
  probed(store: Store, probe: WebGpuProbe, report: WebGpuReport): void {
    store.setState({ capability: { probe, report } });
  },
  loadRequested(store: Store, modelId: string): void {
    store.setState((state) => ({ loading: { ...state.loading, [modelId]: null }, failures: without(state.failures, modelId) }));
  },
  progress(store: Store, modelId: string, progress: LoadProgress): void {
    store.setState((state) => (modelId in state.loading ? { loading: { ...state.loading, [modelId]: progress } } : {}));
  },
  modelState(store: Store, next: LocalModelsState): void {
    store.setState((state) => applyModelState(state, next));
  },
  workerFailed(store: Store, modelId: string, message: string): void {
    store.setState((state) => ({
      loading: without(state.loading, modelId),
      failures: { ...state.failures, [modelId]: { code: 'unknown', message } },
    }));
  },
  cache(store: Store, cached: Record<string, boolean>, problem: string | undefined): void {
    store.setState((state) => ({ cached: { ...state.cached, ...cached }, cacheProblem: problem ?? null }));
  },
  storage(store: Store, storage: StorageUse | undefined): void {
    store.setState({ storage: storage ?? null });
  },
  chooseContextWindow(store: Store, modelId: string, tokens: number): void {
    store.setState((state) => ({ contextWindows: { ...state.contextWindows, [modelId]: tokens } }));
  },
  editCustom(store: Store, custom: ModelsState['custom']): void {
    store.setState({ custom });
  },
  /** The orchestrator worker was lost, and with it every model it drove. */
  workerLost(store: Store): void {
    store.setState((state) => applyModelState(state, { loaded: [], loading: [] }));
  },
  dismissFailure(store: Store, modelId: string): void {
    store.setState((state) => ({ failures: without(state.failures, modelId) }));
  },
};

export type ModelsStore = StoreWithActions<ModelsState, typeof modelsActions>;

export function createModelsStore(): ModelsStore {
  return makeStore(plainStore(initialState), {}, modelsActions);
}
