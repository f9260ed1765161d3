import { useId } from 'react';
import type { Quantization } from '../../../workers/backends/webllm/catalogue.ts';
import { modelsActions, useModelsStore } from '../../state/modelsStore.ts';

/** Where the user's converted Orchestrator-8B weights are (docs/orchestrator-8b-in-the-browser.md). */
export function CustomWeights({ problem }: { problem: string | null }) {
  const custom = useModelsStore((state) => state.custom);
  const urlId = useId();
  const quantizationId = useId();
  const problemId = useId();
  return (
    <li className="model-row custom">
      <fieldset>
        <legend>Orchestrator-8B (your converted weights)</legend>
        <p className="muted">
          NVIDIA publishes no web-llm build of Orchestrator-8B: convert and host it as docs/orchestrator-8b-in-the-browser.md
          says, then give its URL. It loads with web-llm’s Qwen3-8B library.
        </p>
        <label htmlFor={urlId}>Weights URL</label>
        <input
          id={urlId}
          type="url"
          spellCheck={false}
          placeholder="https://huggingface.co/you/Orchestrator-8B-q4f16_1-MLC"
          value={custom.weightsUrl}
          aria-describedby={problem ? problemId : undefined}
          onChange={(event) => modelsActions.editCustom({ ...custom, weightsUrl: event.target.value.trim() })}
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
        {problem ? (
          <p id={problemId} className="model-warning">
            {problem}
          </p>
        ) : null}
      </fieldset>
    </li>
  );
}
