// The page's side of the orchestrator worker (workers/hosts/messages.ts is the boundary). The worker
// starts on first use, so the first screen does not pay for the engine's chunk. For each model
// loaded in this browser the page also starts a model worker (web-llm's engine, on the GPU) and
// connects it to the orchestrator worker with a MessageChannel: the orchestrator worker drives
// it, tokens never pass this thread, and terminating it here frees the model's memory for sure.

import type { LoadProgress } from '../../workers/backends/webllm/loadProgress.ts';
import type { RunEvent } from '../../workers/engine/events.ts';
import type { HumanTurn } from '../../workers/engine/types.ts';
import type { EvalFromWorker, FromWorker, OrchestratorRequests } from '../../workers/hosts/messages.ts';
import type { ReplyMessage } from '../../workers/hosts/requests.ts';
import type { ModelWorkerRequests } from '../../workers/hosts/models/modelMessages.ts';
import { createRequestClient, lossMessage, type RequestClient } from './requestClient.ts';
import type { LocalModelRequest, LocalModelsState } from '../../workers/hosts/models/modelState.ts';
import type { GgufModelRequest } from '../../workers/hosts/models/modelState.ts';

export interface OrchestratorHandlers {
  onEvents(events: RunEvent[]): void;
  /** A manual run waits for the person's choice of this turn. */
  onHumanTurn(runId: string, turn: HumanTurn): void;
  /** The engine broke without finishing this run (a bug): the run is over, the worker still works. */
  onRunFailed(runId: string, message: string): void;
  /** The worker itself failed (it did not load, or threw outside the engine). It and the model
   * workers it drove are gone; the next call starts a fresh one, with no keys in memory. */
  onWorkerLost(message: string): void;
  onModelProgress(modelId: string, progress: LoadProgress): void;
  onModelState(state: LocalModelsState): void;
  /** A model worker could not start or broke outside web-llm's protocol. */
  onModelWorkerFailed(modelId: string, message: string): void;
  /** An evaluation's progress, events or end. */
  onEval(message: EvalFromWorker): void;
}

/** The page's side of the orchestrator worker: any of its requests (messages.ts:
 * OrchestratorRequests), and the two that start a model worker on this page first. */
export interface OrchestratorClient extends Pick<RequestClient<OrchestratorRequests>, 'request' | 'tell' | 'started'> {
  /** Loads a model with web-llm in a model worker of its own (workers/hosts/models/webllm.worker.ts). */
  loadModel(model: LocalModelRequest, contextWindow: number): void;
  /** Loads a GGUF model with llama.cpp in a GGUF model worker (workers/hosts/models/gguf.worker.ts). */
  loadGgufModel(request: GgufModelRequest): void;
  /** Ends the worker at once (a run that does not stop); the next call starts a fresh one. */
  restart(message: string): void;
}

export function createOrchestratorClient(handlers: OrchestratorHandlers): OrchestratorClient {
  const client = createRequestClient<OrchestratorRequests, Exclude<FromWorker, ReplyMessage>>({
    create: () => new Worker(new URL('../../workers/hosts/orchestrator.worker.ts', import.meta.url), { type: 'module', name: 'orchestrator' }),
    onPush: (data) => {
      if (data.type === 'model_state') modelWorkers.retire(data.state);
      tellHandlers(handlers, data);
    },
    // A worker in an unknown state is not trusted with another run: it is replaced.
    onLost: (loss) => lose(lossMessage(loss, 'The orchestrator worker failed to start.', 'A message from the orchestrator worker could not be read.')),
  });
  const { tell } = client;
  const modelWorkers = new ModelWorkers(handlers, (modelId) => tell('unload_model', { modelId }));

  /** Ends the orchestrator worker and every model worker it drove. */
  const lose = (message: string) => {
    client.terminate(new Error('the worker that holds the keys was lost before it answered'));
    modelWorkers.terminateAll();
    handlers.onWorkerLost(message);
  };

  return {
    request: client.request,
    tell,
    started: client.started,
    restart: (message) => lose(message),
    loadModel: (model, contextWindow) =>
      modelWorkers.start(
        model.id,
        () => new Worker(new URL('../../workers/hosts/models/webllm.worker.ts', import.meta.url), { type: 'module', name: `web-llm ${model.id}` }),
        (port) => tell('load_model', { model, contextWindow, port }, { transfer: [port] }),
      ),
    loadGgufModel: (request) =>
      modelWorkers.start(
        request.id,
        () => new Worker(new URL('../../workers/hosts/models/gguf.worker.ts', import.meta.url), { type: 'module', name: `llama.cpp ${request.id}` }),
        (port) => tell('load_gguf', { request, port }, { transfer: [port] }),
      ),
  };
}

/** What the worker says unasked, handed to the page's handlers. */
function tellHandlers(handlers: OrchestratorHandlers, data: Exclude<FromWorker, ReplyMessage>): void {
  switch (data.type) {
    case 'events':
      handlers.onEvents(data.events);
      break;
    case 'human_turn':
      handlers.onHumanTurn(data.runId, data.turn);
      break;
    case 'run_failed':
      handlers.onRunFailed(data.runId, data.message);
      break;
    case 'model_progress':
      handlers.onModelProgress(data.modelId, data.progress);
      break;
    case 'model_state':
      handlers.onModelState(data.state);
      break;
    case 'eval_progress':
    case 'eval_events':
    case 'eval_finished':
    case 'eval_failed':
      handlers.onEval(data);
      break;
  }
}

/** The model workers the page started, one per model loading or loaded in this browser, each
 * connected to the orchestrator worker by a port. */
class ModelWorkers {
  private readonly workers = new Map<string, RequestClient<ModelWorkerRequests>>();

  constructor(
    private readonly handlers: OrchestratorHandlers,
    private readonly unload: (modelId: string) => void,
  ) {}

  /** Starts a worker for a model that has none (`create`: its literal `new Worker(new URL(…))`,
   * which Vite bundles), keeps it, and hands `load` the port that leads to it. */
  start(modelId: string, create: () => Worker, load: (port: MessagePort) => void): void {
    if (this.workers.has(modelId)) return;
    const modelWorker = createRequestClient<ModelWorkerRequests>({
      create,
      // A model worker that fails (its script did not load, or it broke later) takes its model with
      // it: unload covers both a load in progress and a loaded model, so no dead model stays "loaded".
      onLost: (loss) => {
        this.workers.delete(modelId);
        this.unload(modelId);
        this.handlers.onModelWorkerFailed(modelId, `The model worker failed: ${lossMessage(loss, 'its script did not load', 'what it sent could not be read')}.`);
      },
    });
    this.workers.set(modelId, modelWorker);
    const channel = new MessageChannel();
    modelWorker.tell('connect', { port: channel.port1 }, { transfer: [channel.port1] });
    load(channel.port2);
  }

  /** A model worker lives while its model is loading or loaded. */
  retire(state: LocalModelsState): void {
    const alive = new Set([...state.loading, ...state.loaded.map((model) => model.id)]);
    for (const [modelId, modelWorker] of this.workers) {
      if (alive.has(modelId)) continue;
      modelWorker.terminate(new Error('its model was unloaded'));
      this.workers.delete(modelId);
    }
  }

  terminateAll(): void {
    for (const modelWorker of this.workers.values()) modelWorker.terminate(new Error('the orchestrator worker was lost'));
    this.workers.clear();
  }
}
