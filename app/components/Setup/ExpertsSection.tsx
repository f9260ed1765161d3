import { useId, useState } from 'react';
import { PAPER_EXPERTS_PRESET } from '../../../workers/engine/presets.ts';
import {
  addExpert,
  expandPaperExperts,
  nameProblem,
  parseNumberInput,
  problemsUnder,
  removeExpert,
  TOOL_NAMES,
  updateExpert,
  withPaperExperts,
  type ExpertDraft,
  type ToolName,
} from './draftEdits.ts';
import { useEditDraft } from './editDraft.ts';
import { Field } from './Field.tsx';
import { ProviderSelect } from './ProviderSelect.tsx';
import { Section } from './Section.tsx';
import { useSetupStore } from '../../state/context.tsx';

const TOOL_LABELS: Record<ToolName, string> = {
  search: 'search — writes search queries',
  enhance_reasoning: 'enhance_reasoning — writes and runs code',
  answer: 'answer — writes the final answer',
  call_expert: 'call_expert — function-calling expert',
};

export function ExpertsSection({ problems }: { problems: readonly string[] }) {
  const editDraft = useEditDraft();
  const experts = useSetupStore((state) => state.draft.experts);
  const providers = useSetupStore((state) => state.draft.providers);
  const count = Object.keys(experts === 'paper' ? PAPER_EXPERTS_PRESET : experts).length;
  const generalProblems = problemsUnder(problems, 'experts', true);
  return (
    <Section
      title="Experts"
      summary={experts === 'paper' ? "the paper's mapping" : `${count} ${count === 1 ? 'alias' : 'aliases'}`}
      problemCount={problemsUnder(problems, 'experts').length}
    >
      <p className="setup-intro muted">
        The models behind each alias the orchestrator can call. It sees only the alias, the description and the
        price and latency table.
      </p>
      {generalProblems.length > 0 && (
        <ul className="setup-field-problems">
          {generalProblems.map((problem) => (
            <li key={problem}>experts: {problem}</li>
          ))}
        </ul>
      )}
      {experts === 'paper' ? (
        <PaperExperts />
      ) : (
        <>
          <button
            type="button"
            onClick={() => editDraft(withPaperExperts)}
            aria-describedby="setup-paper-experts-hint"
          >
            Use the paper&apos;s experts
          </button>
          <p id="setup-paper-experts-hint" className="setup-hint muted">
            Twelve aliases: GPT-5 models on the provider “openai”, open models on “open-models” (both added when
            missing).
          </p>
          {Object.entries(experts).map(([alias, expert]) => (
            <ExpertFields
              key={alias}
              alias={alias}
              expert={expert}
              providers={Object.keys(providers)}
              problems={problems}
            />
          ))}
          <AddExpert taken={Object.keys(experts)} />
        </>
      )}
    </Section>
  );
}

function PaperExperts() {
  const editDraft = useEditDraft();
  return (
    <>
      <p>The paper&apos;s evaluation mapping:</p>
      <table className="setup-table setup-experts-table">
        <thead>
          <tr>
            <th scope="col">Alias</th>
            <th scope="col">Model</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(PAPER_EXPERTS_PRESET).map(([alias, expert]) => (
            <tr key={alias}>
              <th scope="row">{alias}</th>
              <td>
                {expert.model} <span className="muted">on {expert.provider}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button type="button" onClick={() => editDraft(expandPaperExperts)}>
        Edit experts one by one
      </button>
    </>
  );
}

function ExpertFields({
  alias,
  expert,
  providers,
  problems,
}: {
  alias: string;
  expert: ExpertDraft;
  providers: readonly string[];
  problems: readonly string[];
}) {
  const editDraft = useEditDraft();
  const at = (field: string) => problemsUnder(problems, `experts.${alias}.${field}`);
  const update = (patch: Partial<ExpertDraft>) => editDraft((draft) => updateExpert(draft, alias, patch));
  const legendId = useId();
  return (
    <fieldset className="setup-item" aria-labelledby={legendId}>
      <legend>
        <span id={legendId}>{alias}</span>
        <RemoveExpert alias={alias} />
      </legend>
      <Field label="Tool" problems={at('tool')}>
        {(control) => (
          <select {...control} value={expert.tool} onChange={(event) => update({ tool: event.target.value as ToolName })}>
            {TOOL_NAMES.map((tool) => (
              <option key={tool} value={tool}>
                {TOOL_LABELS[tool]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Provider" problems={at('provider')}>
        {(control) => (
          <ProviderSelect control={control} providers={providers} value={expert.provider} onChange={(provider) => update({ provider })} />
        )}
      </Field>
      <Field label="Model" problems={at('model')}>
        {(control) => (
          <input
            {...control}
            type="text"
            spellCheck={false}
            value={expert.model}
            onChange={(event) => update({ model: event.target.value })}
          />
        )}
      </Field>
      <Field label="Description (what it is good at)" problems={at('description')}>
        {(control) => (
          <input
            {...control}
            type="text"
            value={expert.description ?? ''}
            onChange={(event) => update({ description: event.target.value || undefined })}
          />
        )}
      </Field>
      <Field label="Typical latency (seconds)" problems={at('latencySeconds')}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            step="any"
            className="setup-number"
            value={expert.latencySeconds ?? ''}
            placeholder="unknown"
            onChange={(event) => update({ latencySeconds: parseNumberInput(event.target.value) })}
          />
        )}
      </Field>
    </fieldset>
  );
}

function AddExpert({ taken }: { taken: readonly string[] }) {
  const editDraft = useEditDraft();
  const [alias, setAlias] = useState('');
  const [tool, setTool] = useState<ToolName>('answer');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const found = nameProblem(alias, taken);
    setProblem(found);
    if (found) return;
    editDraft((draft) => addExpert(draft, alias, tool));
    setAlias('');
  };
  return (
    <fieldset className="setup-add">
      <legend>Add an expert</legend>
      <Field label="Alias" problems={problem ? [problem] : []}>
        {(control) => (
          <input
            {...control}
            type="text"
            spellCheck={false}
            value={alias}
            placeholder="e.g. answer-3"
            onChange={(event) => setAlias(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') add();
            }}
          />
        )}
      </Field>
      <Field label="Tool">
        {(control) => (
          <select {...control} value={tool} onChange={(event) => setTool(event.target.value as ToolName)}>
            {TOOL_NAMES.map((name) => (
              <option key={name} value={name}>
                {TOOL_LABELS[name]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="button" onClick={add}>
        Add expert
      </button>
    </fieldset>
  );
}

function RemoveExpert({ alias }: { alias: string }) {
  const editDraft = useEditDraft();
  return (
    <button type="button" className="setup-remove" aria-label={`Remove expert ${alias}`} onClick={() => editDraft((draft) => removeExpert(draft, alias))}>
      Remove
    </button>
  );
}
