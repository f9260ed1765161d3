import { memo, useId } from 'react';
import { modelAvailability, SOFTWARE_ADAPTER_WARNING, type WebGpuReport } from '../../../workers/backends/webllm/capabilities.ts';
import { addressesOutsideCatalogue, type LocalModel } from '../../../workers/backends/webllm/catalogue.ts';
import { webLlmKind } from '../../../workers/backends/webllm/kind.ts';
import type { LocalModelRequest } from '../../../workers/hosts/models/modelState.ts';
import { explainError } from '../../errors/explain.ts';
import { formatCount } from '../../format.ts';
import { formatBytes } from '../../format.ts';
import { contextWindowChoices, formatMegabytes } from './figures.ts';
import { LoadBar } from './LoadBar.tsx';
import { UseInSetup } from './UseInSetup.tsx';
import type { ModelFailure } from '../../state/modelsStore.ts';
import { useLocalModels, useModelsActions, useModelsStore, useRunStore, useSetupStore } from '../../state/context.tsx';

interface ModelRowProps {
  model: LocalModel;
  request: LocalModelRequest;
  report: WebGpuReport;
  /** Asks before a download (the panel's dialog). */
  onAskDownload(model: LocalModel, request: LocalModelRequest, contextWindow: number): void;
}

/** One model of the catalogue: whether it can run here and why, its sizes, and what to do with it. */
export const ModelRow = memo(function ModelRow({ model, request, report, onAskDownload }: ModelRowProps) {
  const localModels = useLocalModels();
  const modelsActions = useModelsActions();
  const id = model.id;
  const loaded = useModelsStore((state) => state.loaded.find((entry) => entry.id === id));
  const loading = useModelsStore((state) => (id in state.loading ? (state.loading[id] ?? null) : undefined));
  const cached = useModelsStore((state) => state.cached[id]);
  const failure = useModelsStore((state) => state.failures[id]);
  const contextWindow = useModelsStore((state) => state.contextWindows[id] ?? model.defaultContextWindow);
  const headingId = useId();

  const availability = modelAvailability(model, report, { contextWindow });
  // Files from outside the catalogue are loaded only once the user agreed to their addresses.
  const trusted = useSetupStore((state) => state.trustedAddresses);
  const asks = !cached || addressesOutsideCatalogue(request.custom).some((address) => !trusted.includes(address.url));
  const load = () => {
    if (asks) onAskDownload(model, request, contextWindow);
    else localModels.loadLocalModel(request, contextWindow);
  };

  return (
    <li className={`model-row${availability.available ? '' : ' unavailable'}`}>
      <div role="group" aria-labelledby={headingId}>
        <div className="model-head">
          <h3 id={headingId}>{model.label}</h3>
          {cached ? <span className="model-badge cached">In cache</span> : null}
          {loaded ? <span className="model-badge loaded">Loaded · {formatCount(loaded.contextWindow)} tokens</span> : null}
          {availability.available ? null : <span className="model-badge unavailable">Not available here</span>}
        </div>
        <p className="model-facts">
          Download ≈ {formatBytes(model.downloadBytesEstimate)} · GPU memory ≈ {formatMegabytes(availability.vramEstimateMB)} at{' '}
          {formatCount(loaded?.contextWindow ?? contextWindow)} tokens
        </p>
        {availability.available ? null : <p className="model-reason">{availability.reason}</p>}
        <Warnings warnings={availability.warnings} />
        {failure ? <FailureNotice failure={failure} onDismiss={() => modelsActions.dismissFailure(id)} /> : null}

        {loaded ? (
          <LoadedControls model={model} request={request} />
        ) : loading !== undefined ? (
          <div className="model-controls">
            <LoadBar label={model.label} progress={loading} />
            <button type="button" onClick={() => localModels.cancelLocalModelLoad(id)}>
              Cancel
            </button>
          </div>
        ) : availability.available ? (
          <LoadControls model={model} request={request} contextWindow={contextWindow} cached={cached === true} asks={asks} onLoad={load} />
        ) : cached ? (
          <div className="model-controls">
            <button type="button" onClick={() => localModels.deleteCachedModel(request)}>
              Delete from cache
            </button>
          </div>
        ) : null}
      </div>
    </li>
  );
});

/** A loaded model: put it to work in the config, or unload it. */
function LoadedControls({ model, request }: { model: LocalModel; request: LocalModelRequest }) {
  const localModels = useLocalModels();
  const runBusy = useRunStore((state) => state.phase !== 'idle');
  return (
    <div className="model-controls loaded">
      <UseInSetup request={request} label={model.label} kind={webLlmKind.kind} />
      {/* A model unloaded under a run would leave its call waiting on a worker that is gone. */}
      <button
        type="button"
        onClick={() => localModels.unloadLocalModel(model.id)}
        disabled={runBusy}
        title={runBusy ? 'Stop the run first: it may be using this model.' : undefined}
      >
        Unload
      </button>
    </div>
  );
}

/** Why the model could not load, in plain words, until dismissed. */
function FailureNotice({ failure, onDismiss }: { failure: ModelFailure; onDismiss(): void }) {
  const explained = explainError(failure.code);
  return (
    <div className="model-failure" role="alert">
      <p>
        <strong>{explained.title}.</strong> {failure.message}
      </p>
      {explained.hint ? <p className="muted">{explained.hint}</p> : null}
      <button type="button" className="small" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}

/** What the capability check warns about this model (the software adapter is said once, above). */
function Warnings({ warnings }: { warnings: readonly string[] }) {
  return warnings
    .filter((warning) => warning !== SOFTWARE_ADAPTER_WARNING)
    .map((warning) => (
      <p key={warning} className="model-warning">
        {warning}
      </p>
    ));
}

interface LoadControlsProps {
  model: LocalModel;
  request: LocalModelRequest;
  contextWindow: number;
  cached: boolean;
  /** Loading asks first (a download, or an address outside the catalogue). */
  asks: boolean;
  onLoad(): void;
}

/** The context window to load with, Load, and Delete from the cache. */
function LoadControls({ model, request, contextWindow, cached, asks, onLoad }: LoadControlsProps) {
  const localModels = useLocalModels();
  const modelsActions = useModelsActions();
  const windowId = useId();
  const id = model.id;
  return (
    <div className="model-controls">
      <label htmlFor={windowId}>Context window</label>
      <select
        id={windowId}
        value={contextWindow}
        onChange={(event) => modelsActions.chooseContextWindow(id, Number(event.target.value))}
      >
        {contextWindowChoices(model).map((choice) => (
          <option key={choice.tokens} value={choice.tokens}>
            {choice.label}
          </option>
        ))}
      </select>
      <button type="button" className="primary" onClick={onLoad}>
        {asks ? 'Load…' : 'Load'}
      </button>
      {cached ? (
        <button type="button" onClick={() => localModels.deleteCachedModel(request)}>
          Delete from cache
        </button>
      ) : null}
    </div>
  );
}
