import { useId } from 'react';
import type { Quantization } from '../../../workers/backends/webllm/catalogue.ts';
import { type ModelsState } from '../../state/modelsStore.ts';
import { useModelsActions, useModelsStore } from '../../state/context.tsx';

type UrlField = 'weightsUrl' | 'modelLibUrl';

/** Where the user's converted Orchestrator-8B weights are (docs/orchestrator-8b-in-the-browser.md). */
export function CustomWeights({ problem }: { problem: string | null }) {
  const modelsActions = useModelsActions();
  const custom = useModelsStore((state) => state.custom);
  const quantizationId = useId();
  const problemId = useId();
  return (
    <li className="model-row custom">
      <fieldset>
        <legend>Orchestrator-8B (your converted weights)</legend>
        <p className="muted">
          NVIDIA publishes no web-llm build of Orchestrator-8B: convert and host it as docs/orchestrator-8b-in-the-browser.md
          says, then give its URL. It loads with web-llm’s Qwen3-8B library unless you name another. Loading from an
          address outside web-llm’s catalogue asks first.
        </p>
        <UrlInput
          custom={custom}
          field="weightsUrl"
          label="Weights URL"
          placeholder="https://huggingface.co/you/Orchestrator-8B-q4f16_1-MLC"
          describedBy={problem ? problemId : undefined}
        />
        <label htmlFor={quantizationId}>Quantization (as converted)</label>
        <select
          id={quantizationId}
          value={custom.quantization}
          onChange={(event) => modelsActions.editCustom({ ...custom, quantization: event.target.value as Quantization })}
        >
          <option value="q4f16_1">q4f16_1 (needs shader-f16)</option>
          <option value="q4f32_1">q4f32_1</option>
        </select>
        <UrlInput custom={custom} field="modelLibUrl" label="Model library URL (optional)" placeholder="web-llm’s prebuilt Qwen3-8B library" />
        {problem ? (
          <p id={problemId} className="model-warning">
            {problem}
          </p>
        ) : null}
      </fieldset>
    </li>
  );
}

function UrlInput({
  custom,
  field,
  label,
  placeholder,
  describedBy,
}: {
  custom: ModelsState['custom'];
  field: UrlField;
  label: string;
  placeholder: string;
  describedBy?: string | undefined;
}) {
  const modelsActions = useModelsActions();
  const id = useId();
  return (
    <>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="url"
        spellCheck={false}
        placeholder={placeholder}
        value={custom[field]}
        aria-describedby={describedBy}
        onChange={(event) => modelsActions.editCustom({ ...custom, [field]: event.target.value.trim() })}
      />
    </>
  );
}
