import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  addressesOutsideCatalogue,
  customOrchestrator8bRecord,
  QWEN3_MODELS,
  type LocalModel,
} from '../../../workers/backends/webllm/catalogue.ts';
import { describeStorage } from '../../../workers/backends/webllm/modelCache.ts';
import type { LocalModelRequest } from '../../../workers/hosts/models/modelState.ts';
import { type ModelsState } from '../../state/modelsStore.ts';
import { formatBytes } from '../../format.ts';
import { LoadBar } from './LoadBar.tsx';
import { CapabilityReport } from './CapabilityReport.tsx';
import { ConfirmDownload, type PendingDownload } from './ConfirmDownload.tsx';
import { CustomWeights } from './CustomWeights.tsx';
import { customWeightsInDraft } from './localDraft.ts';
import { ModelRow } from './ModelRow.tsx';
import { UseInSetup } from './UseInSetup.tsx';
import { ggufCpuOnly } from '../../../workers/backends/gguf/cpuReasons.ts';
import { useCapability } from './useCapability.ts';
import { useWhenVisible } from './useWhenVisible.ts';
import './Models.css';
import { useLocalModels, useModelsActions, useModelsStore, useSetupActions, useSetupStore } from '../../state/context.tsx';

// llama.cpp's section loads when the panel is first on screen, never with the first screen.
const GgufModels = lazy(() => import('./GgufModels.tsx').then(({ GgufModels }) => ({ default: GgufModels })));

const PREBUILT: Array<{ model: LocalModel; request: LocalModelRequest }> = QWEN3_MODELS.map((model) => ({ model, request: { id: model.id } }));

type CustomEntry = { model: LocalModel; request: LocalModelRequest } | { problem: string | null };

function customEntry(custom: ModelsState['custom']): CustomEntry {
  if (custom.weightsUrl === '') return { problem: null };
  try {
    const options = {
      weightsUrl: custom.weightsUrl,
      quantization: custom.quantization,
      ...(custom.modelLibUrl === '' ? {} : { modelLibUrl: custom.modelLibUrl }),
    };
    const model = customOrchestrator8bRecord(options);
    return { model, request: { id: model.id, custom: options } };
  } catch (error) {
    return { problem: (error as Error).message };
  }
}

/** Models that run in this tab on WebGPU (web-llm): what this browser can do, the catalogue, loading. */
export function ModelsPanel() {
  const localModels = useLocalModels();
  const setupActions = useSetupActions();
  const capability = useCapability();
  const usable = capability?.report.usable === true;
  const storage = useModelsStore((state) => state.storage);
  const cacheProblem = useModelsStore((state) => state.cacheProblem);
  const custom = useModelsStore((state) => state.custom);
  const entry = useMemo(() => customEntry(custom), [custom]);
  const [pending, setPending] = useState<PendingDownload | null>(null);
  const panel = useRef<HTMLElement>(null);
  const visible = useWhenVisible(panel);

  useCustomWeightsFromDraft();

  // The cache is read (in the orchestrator worker, through web-llm) once the panel is on screen.
  const customId = 'model' in entry ? entry.model.id : null;
  const trusted = useSetupStore((state) => state.trustedAddresses);
  useEffect(() => {
    if (!visible || !usable) return;
    localModels.checkModelCache([...PREBUILT.map((row) => row.request), ...('request' in entry ? [entry.request] : [])]);
    localModels.refreshStorageEstimate();
    // The custom request changes only with its id (URL and quantization).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [visible, usable, customId]);

  const askDownload = useCallback((model: LocalModel, request: LocalModelRequest, contextWindow: number) => {
    setPending({ model, request, contextWindow });
  }, []);

  return (
    <section ref={panel} className="panel models-panel" aria-labelledby="models-heading" id="models">
      <h2 id="models-heading">Models in this browser</h2>
      <CapabilityReport place="panel" />
      {usable && capability ? (
        <>
          <p className="muted">
            Each model runs on this computer’s GPU in its own worker: as the orchestrator, or behind an expert alias at $0.
            Its files are downloaded once and kept in the browser.
          </p>
          {storage ? <p className="models-storage">{describeStorage(storage)}</p> : null}
          {cacheProblem ? (
            <p className="model-warning" role="alert">
              {cacheProblem}
            </p>
          ) : null}
          <ul className="model-list">
            {PREBUILT.map(({ model, request }) => (
              <ModelRow key={model.id} model={model} request={request} report={capability.report} onAskDownload={askDownload} />
            ))}
            <CustomWeights problem={'problem' in entry ? entry.problem : null} />
            {'model' in entry ? (
              <ModelRow model={entry.model} request={entry.request} report={capability.report} onAskDownload={askDownload} />
            ) : null}
          </ul>
        </>
      ) : null}
      {visible ? <GgufSection /> : null}
      <ConfirmDownload
        pending={pending}
        storage={storage}
        untrusted={pending ? addressesOutsideCatalogue(pending.request.custom).filter((address) => !trusted.includes(address.url)) : []}
        onClose={() => setPending(null)}
        onConfirm={(confirmed, addresses) => {
          setPending(null);
          setupActions.trustAddresses(addresses.map((address) => address.url));
          localModels.loadLocalModel(confirmed.request, confirmed.contextWindow);
        }}
      />
    </section>
  );
}

/** Converted weights named in the config fill the custom row, when it opens and whenever the config
 * names others (an import); loading from them still asks. */
function useCustomWeightsFromDraft(): void {
  const modelsActions = useModelsActions();
  const draftWeights = useSetupStore((state) => JSON.stringify(customWeightsInDraft(state.draft) ?? null));
  useEffect(() => {
    const fromDraft = JSON.parse(draftWeights) as ReturnType<typeof customWeightsInDraft> | null;
    if (!fromDraft) return;
    modelsActions.editCustom({
      weightsUrl: fromDraft.weightsUrl,
      quantization: fromDraft.quantization ?? 'q4f16_1',
      modelLibUrl: fromDraft.modelLibUrl ?? '',
    });
  }, [draftWeights, modelsActions]);
}

/** GGUF models (llama.cpp), loaded once the panel is on screen. */
function GgufSection() {
  const localModels = useLocalModels();
  const capability = useCapability();
  const loaded = useModelsStore((state) => state.loaded);
  const loading = useModelsStore((state) => state.loading);
  const failures = useModelsStore((state) => state.failures);
  return (
    <Suspense fallback={null}>
      <GgufModels
        loaded={loaded}
        loading={loading}
        failures={failures}
        onLoad={localModels.loadGgufModel}
        onCancel={localModels.cancelLocalModelLoad}
        onUnload={localModels.unloadLocalModel}
        formatBytes={formatBytes}
        LoadBar={LoadBar}
        UseInSetup={UseInSetup}
        cpuOnly={ggufCpuOnly(capability?.probe)}
      />
    </Suspense>
  );
}
