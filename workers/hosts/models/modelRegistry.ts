// What the two kinds of model loaded in this browser share: web-llm's (localModels.ts) and GGUF's
// through llama.cpp (ggufModels.ts). One entry per model id from the moment its load starts, the
// state the page shows (loaded, loading, the latest failure), cancel and unload, and the words for
// a model a run asks for that is not ready. Each kind keeps only how it loads and how it answers.

import { toErrorInfo } from '../../engine/errors.ts';
import type { LoadedLocalModel, LocalModelFailure, LocalModelsState } from './modelState.ts';

/** A model here: loading until `loaded` is set. */
export interface RegistryEntry<Engine> {
  id: string;
  label: string;
  /** The model's engine: set when the load creates it (web-llm's comes once its code loaded). */
  engine?: Engine;
  loaded?: LoadedLocalModel;
}

/** What a finished load tells about the model, besides its id and label. */
export type LoadOutcome = Omit<LoadedLocalModel, 'id' | 'label'>;

export interface ModelRegistry<Engine> {
  readonly state: LocalModelsState;
  /** Whether the id is here, loading or loaded. */
  has(modelId: string): boolean;
  /**
   * Loads a model: refuses an id already here (closing `release`'s port), keeps the entry while
   * `run` works, then records it as loaded or records the failure (a cancel is none). `release`
   * lets the model's worker go when the entry goes. Resolves when done; never rejects.
   */
  load(
    model: { id: string; label: string; engine?: Engine },
    release: () => void,
    run: (entry: RegistryEntry<Engine>, signal: AbortSignal) => Promise<LoadOutcome>,
  ): Promise<void>;
  /** Stops a load in progress (nothing for a loaded model). */
  cancel(modelId: string): void;
  /** Gives the model up, or cancels its load; the page then terminates its model worker. */
  unload(modelId: string): void;
  /** A loaded model's entry, for a run. Throws in words when it is still loading, or with
   * `notHere()` when it is not here. */
  ready(modelId: string, notHere: () => string): RegistryEntry<Engine> & { engine: Engine; loaded: LoadedLocalModel };
  /** Reports a failure: a request refused before it loads, or (with `drop`) a model that can no
   * longer answer, given up so that the page says so. */
  fail(failure: LocalModelFailure, options?: { drop: boolean }): void;
}

interface Entry<Engine> extends RegistryEntry<Engine> {
  release(): void;
  /** Set while the load runs. */
  controller?: AbortController;
}

export function createModelRegistry<Engine>(onChange: (state: LocalModelsState) => void): ModelRegistry<Engine> {
  return new EntryRegistry<Engine>(onChange);
}

/** The models of one model worker's kind, by id, each loading or loaded, and the last failure. */
class EntryRegistry<Engine> implements ModelRegistry<Engine> {
  private readonly entries = new Map<string, Entry<Engine>>();
  private failure: LocalModelFailure | undefined;

  constructor(private readonly onChange: (state: LocalModelsState) => void) {}

  get state(): LocalModelsState {
    const entries = [...this.entries.values()];
    return {
      loaded: entries.flatMap((entry) => (entry.loaded ? [entry.loaded] : [])),
      loading: entries.filter((entry) => !entry.loaded).map((entry) => entry.id),
      ...(this.failure ? { failure: this.failure } : {}),
    };
  }

  has(modelId: string): boolean {
    return this.entries.has(modelId);
  }

  async load(
    model: { id: string; label: string; engine?: Engine },
    release: () => void,
    run: (entry: RegistryEntry<Engine>, signal: AbortSignal) => Promise<LoadOutcome>,
  ): Promise<void> {
    const { entries } = this;
    if (entries.has(model.id)) {
      release();
      this.changed({ modelId: model.id, code: 'bad_request', message: `${model.label} is already loaded or loading: unload it first.` });
      return;
    }
    const controller = new AbortController();
    const entry: Entry<Engine> = { ...model, release, controller };
    entries.set(model.id, entry);
    this.changed();
    try {
      const outcome = await run(entry, controller.signal);
      // Unloaded (or unloaded and loaded again) meanwhile: that entry is not this one.
      if (entries.get(model.id) !== entry) return;
      delete entry.controller;
      entry.loaded = { id: model.id, label: model.label, ...outcome };
      this.changed();
    } catch (error) {
      if (entries.get(model.id) !== entry) return;
      this.forget(model.id);
      const info = toErrorInfo(error);
      this.changed(info.code === 'aborted' ? undefined : { modelId: model.id, code: info.code, message: info.message });
    }
  }

  cancel(modelId: string): void {
    this.entries.get(modelId)?.controller?.abort();
  }

  unload(modelId: string): void {
    const entry = this.entries.get(modelId);
    if (!entry) return;
    if (entry.controller) {
      entry.controller.abort();
      return;
    }
    // The page terminates the model worker once the state says the model is gone, which frees
    // its memory for certain (web-llm's own unload() could hang on a broken GPU).
    this.forget(modelId);
    this.changed();
  }

  ready(modelId: string, notHere: () => string): RegistryEntry<Engine> & { engine: Engine; loaded: LoadedLocalModel } {
    const entry = this.entries.get(modelId);
    if (!entry) throw new Error(notHere());
    if (!entry.loaded || entry.engine === undefined) throw new Error(`${entry.label} is still loading: wait for it to finish, then run again.`);
    return entry as Entry<Engine> & { engine: Engine; loaded: LoadedLocalModel };
  }

  fail(next: LocalModelFailure, options?: { drop: boolean }): void {
    if (options?.drop) {
      if (!this.entries.has(next.modelId)) return;
      this.forget(next.modelId);
    }
    this.changed(next);
  }

  private changed(next?: LocalModelFailure): void {
    this.failure = next;
    this.onChange(this.state);
  }

  private forget(modelId: string): void {
    const entry = this.entries.get(modelId);
    if (!entry) return;
    this.entries.delete(modelId);
    entry.release();
  }
}
