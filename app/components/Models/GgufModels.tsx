import { useCallback, useEffect, useState, type ComponentType } from 'react';
import type { LoadProgress } from '../../../workers/backends/webllm/loadProgress.ts';
import {
  GGUF_CATALOGUE,
  ggufDownloadUrl,
  ggufFileName,
  ggufGpuLayersEstimate,
  ggufMemoryBytes,
  ggufUrlFromInput,
  needsSplit,
} from '../../../workers/backends/gguf/catalogue.ts';
import type { CachedGguf } from '../../../workers/backends/gguf/cache.ts';
import type { GgufGpuLayers, GgufSource } from '../../../workers/hosts/models/modelState.ts';
import type { GgufModelRequest } from '../../../workers/hosts/models/modelState.ts';
import { loadedModelKind, type LoadedLocalModel } from '../../../workers/hosts/models/modelState.ts';
import type { ModelFailure } from '../../state/modelsStore.ts';

// GGUF models through llama.cpp (wllama): on WebGPU when the adapter allows, else on the CPU, so
// this section shows whatever the capability check says. Loaded with the Models panel when it is
// first on screen (index.tsx), never with the first screen. What it needs from the first screen's
// modules (the store's state, the session's actions, the bar, the byte formatter) comes in props:
// importing them here would make the bundler split them out of the first chunk, which costs bytes.

export interface GgufModelsProps {
  loaded: LoadedLocalModel[];
  loading: Record<string, LoadProgress | null>;
  failures: Record<string, ModelFailure>;
  onLoad(request: GgufModelRequest): void;
  onCancel(modelId: string): void;
  onUnload(modelId: string): void;
  formatBytes(bytes: number): string;
  LoadBar: ComponentType<{ label: string; progress: LoadProgress | null }>;
  /** "Use as orchestrator" and "Use as expert for alias …" of a loaded model (UseInSetup.tsx). */
  UseInSetup: ComponentType<{ request: { id: string }; label: string; kind: string }>;
  /** Why models will run on the CPU here (cpuReasons.ts), or null when WebGPU may take layers. */
  cpuOnly: string | null;
}

type Pending = { request: GgufModelRequest; bytes: number | null; host: string };

const isolated = typeof crossOriginIsolated === 'boolean' && crossOriginIsolated;
/** Threads for llama.cpp: only a cross-origin isolated page can share memory with them. */
const THREADS = isolated ? Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1)) : 1;

/** What "every layer" asks llama.cpp for: more than any model has. */
const ALL_LAYERS = 999;

// wllama's cache module (its ModelManager) is imported when the section first lists the cache.
const cacheModule = () => import('../../../workers/backends/gguf/cache.ts');

/** The GGUF models kept in this browser's cache, read again whenever `refreshKey` changes. */
function useCachedGguf(refreshKey: string) {
  const [cached, setCached] = useState<CachedGguf[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCallback(() => {
    cacheModule()
      .then(({ listCachedGguf }) => listCachedGguf())
      .then(
        (models) => {
          setCached(models);
          setProblem(null);
        },
        (error: unknown) => setProblem(`The browser's GGUF cache could not be read: ${(error as Error).message}`),
      );
  }, []);
  useEffect(refresh, [refresh, refreshKey]);
  const remove = useCallback(
    (url: string) =>
      cacheModule()
        .then(({ deleteCachedGguf }) => deleteCachedGguf(url))
        .catch((error: unknown) => setProblem(`Could not delete it: ${(error as Error).message}`))
        .finally(refresh),
    [refresh],
  );
  return { cached, problem, remove };
}

export function GgufModels({ loaded, loading, failures, onLoad, onCancel, onUnload, formatBytes, LoadBar, UseInSetup, cpuOnly }: GgufModelsProps) {
  const [settings, setSettings] = useState<LoadSettings>({ contextWindow: 8192, gpuLayers: ALL_LAYERS });
  const [pending, setPending] = useState<Pending | null>(null);
  const [lastId, setLastId] = useState<string | null>(null);

  const request = (id: string, label: string, source: GgufSource): GgufModelRequest => ({ id, label, source, ...settings, threads: THREADS });
  const start = (next: GgufModelRequest) => {
    setPending(null);
    setLastId(next.id);
    onLoad(next);
  };

  const ggufLoaded = loaded.filter((model) => model.gguf);
  const failure = lastId ? failures[lastId] : undefined;
  // A finished load may have added a download: the list is read again when the loaded set changes.
  const { cached, problem: cacheProblem, remove } = useCachedGguf(ggufLoaded.map((model) => model.id).join('\n'));
  const pendingUrl = pending?.request.source.kind === 'url' ? pending.request.source.url : null;
  const pendingCached = pendingUrl ? cached?.find((model) => model.url === pendingUrl) : undefined;

  return (
    <section className="gguf-models" aria-labelledby="gguf-heading">
      <h3 id="gguf-heading">GGUF models (llama.cpp)</h3>
      <p className="muted">
        Any GGUF file, run by llama.cpp in this tab:{' '}
        {cpuOnly ?? 'on WebGPU when this browser’s adapter allows, otherwise on the CPU (slower, but it works without WebGPU).'}{' '}
        {isolated ? `Up to ${THREADS} threads: the page is cross-origin isolated.` : 'One thread: the page is not cross-origin isolated, so llama.cpp cannot share memory with more.'}
      </p>
      <SettingsControls settings={settings} onChange={setSettings} gpu={cpuOnly === null} />
      <Sources settings={settings} request={request} onAsk={setPending} onStart={start} formatBytes={formatBytes} gpu={cpuOnly === null} />
      {pending ? <ConfirmPending pending={pending} cached={pendingCached} onStart={start} onCancel={() => setPending(null)} formatBytes={formatBytes} /> : null}
      {Object.entries(loading)
        .filter(([id]) => id === lastId)
        .map(([id, progress]) => (
          <div key={id}>
            <LoadBar label={id} progress={progress} />
            <button type="button" onClick={() => onCancel(id)}>
              Cancel loading {id}
            </button>
          </div>
        ))}
      {failure ? <p className="model-warning" role="alert">{failure.message}</p> : null}
      <LoadedList loaded={ggufLoaded} onUnload={onUnload} formatBytes={formatBytes} UseInSetup={UseInSetup} />
      <CachedList cached={cached} problem={cacheProblem} remove={remove} formatBytes={formatBytes} />
    </section>
  );
}

/** How the next model loads: its context window and the layers put on WebGPU. */
interface LoadSettings {
  contextWindow: number;
  gpuLayers: number;
}

/** The context window, and the layers on WebGPU where there is a WebGPU to put them on. */
function SettingsControls({ settings, onChange, gpu }: { settings: LoadSettings; onChange(settings: LoadSettings): void; gpu: boolean }) {
  return (
    <div className="gguf-controls">
      <label>
        Context window (tokens){' '}
        <input
          type="number"
          min={512}
          max={40960}
          step={512}
          value={settings.contextWindow}
          onChange={(event) => onChange({ ...settings, contextWindow: Number(event.target.value) || 4096 })}
        />
      </label>
      {gpu ? (
        <label>
          Layers on WebGPU (0: the CPU only){' '}
          <input
            type="number"
            min={0}
            max={ALL_LAYERS}
            value={settings.gpuLayers}
            onChange={(event) => onChange({ ...settings, gpuLayers: Math.max(0, Math.min(ALL_LAYERS, Math.floor(Number(event.target.value) || 0))) })}
          />
        </label>
      ) : null}
    </div>
  );
}

interface SourcesProps {
  settings: LoadSettings;
  request(id: string, label: string, source: GgufSource): GgufModelRequest;
  /** A download to confirm first. */
  onAsk(pending: Pending): void;
  /** A file on this computer: loaded at once. */
  onStart(request: GgufModelRequest): void;
  formatBytes(bytes: number): string;
  /** Whether layers may go to WebGPU here. */
  gpu: boolean;
}

/** Where a model comes from: the catalogue, an address, or a file on this computer. */
function Sources({ settings, request, onAsk, onStart, formatBytes, gpu }: SourcesProps) {
  const [input, setInput] = useState('');
  const [catalogueId, setCatalogueId] = useState(GGUF_CATALOGUE[0]!.id);
  const [problem, setProblem] = useState<string | null>(null);
  const chosen = GGUF_CATALOGUE.find((entry) => entry.id === catalogueId)!;
  const askCatalogue = () => {
    const url = ggufDownloadUrl(chosen);
    onAsk({ request: request(chosen.id, chosen.label, { kind: 'url', url }), bytes: chosen.approxBytes, host: new URL(url).host });
  };
  const askUrl = () => {
    try {
      const url = ggufUrlFromInput(input);
      setProblem(null);
      const id = ggufFileName(url);
      onAsk({ request: request(id, id, { kind: 'url', url }), bytes: null, host: new URL(url).host });
    } catch (error) {
      setProblem((error as Error).message);
    }
  };
  return (
    <>
      <div className="gguf-controls">
        <label>
          Catalogue{' '}
          <select value={catalogueId} onChange={(event) => setCatalogueId(event.target.value)}>
            {GGUF_CATALOGUE.map((entry) => (
              <option key={entry.id} value={entry.id}>
                {entry.label} · about {formatBytes(entry.approxBytes)}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={askCatalogue}>
          Load from the catalogue
        </button>
      </div>
      <CatalogueEntry entry={chosen} settings={settings} formatBytes={formatBytes} gpu={gpu} />
      <div className="gguf-controls">
        <label>
          URL or Hugging Face owner/repo/file.gguf{' '}
          <input type="text" value={input} onChange={(event) => setInput(event.target.value)} placeholder="https://…/model.gguf" />
        </label>
        <button type="button" onClick={askUrl} disabled={input.trim() === ''}>
          Load from this address
        </button>
        <label className="gguf-file">
          Or a file on this computer (nothing is downloaded){' '}
          <input
            type="file"
            accept=".gguf"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) onStart(request(file.name, file.name, { kind: 'file', file, name: file.name }));
            }}
          />
        </label>
      </div>
      {problem ? <p className="model-warning" role="alert">{problem}</p> : null}
    </>
  );
}

/** The catalogue entry chosen: where it comes from and what it needs at these settings. */
function CatalogueEntry({ entry, settings, formatBytes, gpu }: { entry: (typeof GGUF_CATALOGUE)[number]; settings: LoadSettings; formatBytes(bytes: number): string; gpu: boolean }) {
  const layerEstimate = ggufGpuLayersEstimate(entry, settings.gpuLayers, settings.contextWindow);
  return (
    <p className="muted">
      {entry.repo} · {entry.file} · licence: {entry.licence} · needs about {formatBytes(ggufMemoryBytes(entry, settings.contextWindow))} at this window ·{' '}
      {!gpu
        ? 'on the CPU'
        : layerEstimate.layers === 0
          ? 'no layer on WebGPU'
          : `${layerEstimate.layers} of ${layerEstimate.blocks} layers on WebGPU need about ${formatBytes(layerEstimate.bytes)} of GPU memory (an estimate: the file's size spread over its layers, plus their KV cache)`}
      {needsSplit(entry.approxBytes) ? ' · over 2 GB: llama.cpp in the browser needs it split first (see the guide)' : ''} · not tried by this project.
    </p>
  );
}

interface ConfirmPendingProps {
  pending: Pending;
  /** The same file, already kept in this browser. */
  cached: CachedGguf | undefined;
  onStart(request: GgufModelRequest): void;
  onCancel(): void;
  formatBytes(bytes: number): string;
}

function ConfirmPending({ pending, cached, onStart, onCancel, formatBytes }: ConfirmPendingProps) {
  return (
    <div className="gguf-confirm" role="dialog" aria-label="Confirm the download">
      {cached ? (
        <p>
          {pending.request.label} ({formatBytes(cached.bytes)}) is kept in this browser: load it from there? Nothing is downloaded.
        </p>
      ) : (
        <p>
          Download {pending.request.label} ({pending.bytes === null ? 'size unknown until the download starts' : `about ${formatBytes(pending.bytes)}`}) from{' '}
          {pending.host}? It is kept in this browser afterwards.
        </p>
      )}
      <button type="button" onClick={() => onStart(pending.request)}>
        {cached ? 'Load' : 'Download and load'}
      </button>{' '}
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

interface LoadedListProps {
  loaded: LoadedLocalModel[];
  onUnload(modelId: string): void;
  formatBytes(bytes: number): string;
  UseInSetup: GgufModelsProps['UseInSetup'];
}

/** The GGUF models loaded: where each runs, and one click to use it in Setup. */
function LoadedList({ loaded, onUnload, formatBytes, UseInSetup }: LoadedListProps) {
  return (
    <ul className="gguf-loaded" aria-label="GGUF models loaded">
      {loaded.map((model) => (
        <li key={model.id}>
          <p className="gguf-loaded-facts">
            <strong>{model.label}</strong> · {model.contextWindow.toLocaleString('en-US')} tokens · {model.gguf!.threads} thread{model.gguf!.threads === 1 ? '' : 's'} ·{' '}
            {model.gguf!.webgpu ? 'on WebGPU' : (model.gguf!.cpuReason ?? 'on the CPU')}
            {/* Layers asked for WebGPU mean nothing where the model runs on the CPU. */}
            {model.gguf!.webgpu && model.gguf!.gpuLayers ? ` · ${describeGpuLayers(model.gguf!.gpuLayers, formatBytes)}` : ''}
          </p>
          <div className="model-controls loaded">
            <UseInSetup request={{ id: model.id }} label={model.label} kind={loadedModelKind(model)} />
            <button type="button" onClick={() => onUnload(model.id)}>
              Unload
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}

interface CachedListProps {
  cached: CachedGguf[] | null;
  problem: string | null;
  remove(url: string): Promise<void>;
  formatBytes(bytes: number): string;
}

/** The GGUF files kept in this browser, each deletable after a confirmation. */
function CachedList({ cached, problem, remove, formatBytes }: CachedListProps) {
  const [deleting, setDeleting] = useState<CachedGguf | null>(null);
  return (
    <>
      <h4 id="gguf-cached-heading">Kept in this browser</h4>
      {problem ? <p className="model-warning" role="alert">{problem}</p> : null}
      {cached && cached.length === 0 ? <p className="muted">No GGUF model is kept in this browser.</p> : null}
      <ul className="gguf-cached" aria-labelledby="gguf-cached-heading">
        {(cached ?? []).map((model) => (
          <li key={model.url}>
            <strong>{model.name}</strong> · {formatBytes(model.bytes)}
            {model.files > 1 ? ` in ${model.files} files` : ''} · from {new URL(model.url).host}{' '}
            {deleting?.url === model.url ? (
              <span role="group" aria-label={`Confirm deleting ${model.name}`}>
                Delete {model.name} and free {formatBytes(model.bytes)}? Loading it again downloads it again.{' '}
                <button
                  type="button"
                  onClick={() => {
                    setDeleting(null);
                    void remove(model.url);
                  }}
                >
                  Delete
                </button>{' '}
                <button type="button" onClick={() => setDeleting(null)}>
                  Keep
                </button>
              </span>
            ) : (
              <button type="button" onClick={() => setDeleting(model)}>
                Delete…
              </button>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}

/** The loaded line's layer figure: what was asked for, and the estimate of what it takes. */
function describeGpuLayers(layers: GgufGpuLayers, formatBytes: (bytes: number) => string): string {
  const asked = layers.asked >= layers.blocks ? `all ${layers.blocks} layers` : `${layers.asked} of ${layers.blocks} layers`;
  return `asked for ${asked} on WebGPU: about ${formatBytes(layers.estimateBytes)} of GPU memory (an estimate from the file's tensors and the KV cache)`;
}
