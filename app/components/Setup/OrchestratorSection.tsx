import { updateOrchestrator, updateProvider, problemsUnder, type ProviderDraft } from './draftEdits.ts';
import { useEditDraft } from './editDraft.ts';
import { Field } from './Field.tsx';
import { ProviderSelect } from './ProviderSelect.tsx';
import { endpointOf } from './providerKinds.ts';
import { Section } from './Section.tsx';
import { useSetupStore } from '../../state/context.tsx';

const TOOL_MODES = [
  {
    value: 'server',
    label: 'The server parses the calls',
    explanation: 'vLLM with --enable-auto-tool-choice --tool-call-parser hermes.',
  },
  {
    value: 'prompt',
    label: 'Calls read from the text',
    explanation: 'Tools written into the prompt: servers without a tool parser, Anthropic, in-browser models.',
  },
] as const;

const THINKING = { default: undefined, on: true, off: false } as const;
type ThinkingChoice = keyof typeof THINKING;

export function OrchestratorSection({ problems }: { problems: readonly string[] }) {
  const editDraft = useEditDraft();
  const orchestrator = useSetupStore((state) => state.draft.orchestrator);
  const providers = useSetupStore((state) => state.draft.providers);
  const provider = providers[orchestrator.provider];
  const endpoint = provider ? endpointOf(provider) : undefined;
  const providerNames = Object.keys(providers);
  const toolMode = orchestrator.toolMode ?? 'server';
  const thinking: ThinkingChoice =
    orchestrator.enableThinking === undefined ? 'default' : orchestrator.enableThinking ? 'on' : 'off';
  const own = problemsUnder(problems, 'orchestrator');
  const endpointProblems = problemsUnder(problems, `providers.${orchestrator.provider}.baseUrl`, true);

  return (
    <Section
      title="Orchestrator"
      summary={orchestrator.model || 'no model'}
      problemCount={own.length + endpointProblems.length}
      defaultOpen
    >
      <p className="setup-intro muted">The model that decides, turn by turn, which tool or expert to call.</p>
      <Field label="Orchestrator provider" problems={problemsUnder(problems, 'orchestrator.provider', true)}>
        {(control) => (
          <ProviderSelect
            control={control}
            providers={providerNames}
            value={orchestrator.provider}
            onChange={(name) => editDraft((draft) => updateOrchestrator(draft, { provider: name }))}
          />
        )}
      </Field>
      {provider && endpoint?.field && (
        <OrchestratorEndpoint name={orchestrator.provider} provider={provider} placeholder={endpoint.placeholder} problems={endpointProblems} />
      )}
      <Field label="Orchestrator model" problems={problemsUnder(problems, 'orchestrator.model', true)}>
        {(control) => (
          <input
            {...control}
            type="text"
            spellCheck={false}
            value={orchestrator.model}
            placeholder="e.g. nvidia/Nemotron-Orchestrator-8B"
            onChange={(event) => editDraft((draft) => updateOrchestrator(draft, { model: event.target.value }))}
          />
        )}
      </Field>
      <ToolModeChoice toolMode={toolMode} problems={problemsUnder(problems, 'orchestrator.toolMode', true)} />
      <Field label="Thinking" hint="Qwen3's thinking switch (enable_thinking), sent only when set.">
        {(control) => (
          <select
            {...control}
            value={thinking}
            onChange={(event) =>
              editDraft((draft) =>
                updateOrchestrator(draft, { enableThinking: THINKING[event.target.value as ThinkingChoice] }),
              )
            }
          >
            <option value="default">Server default</option>
            <option value="on">On</option>
            <option value="off">Off</option>
          </select>
        )}
      </Field>
    </Section>
  );
}

/** Where the orchestrator's provider sends its requests (a remote provider's base URL). */
function OrchestratorEndpoint({ name, provider, placeholder, problems }: { name: string; provider: ProviderDraft; placeholder: string; problems: string[] }) {
  const editDraft = useEditDraft();
  return (
    <Field
      label="Orchestrator endpoint (base URL)"
      hint={`Up to and including the version path; shared by everything on "${name}".`}
      problems={problems}
    >
      {(control) => (
        <input
          {...control}
          type="url"
          value={provider.baseUrl ?? ''}
          placeholder={placeholder}
          onChange={(event) =>
            editDraft((draft) =>
              updateProvider(draft, name, { baseUrl: event.target.value.trim() || undefined }),
            )
          }
        />
      )}
    </Field>
  );
}

function ToolModeChoice({ toolMode, problems }: { toolMode: string; problems: string[] }) {
  const editDraft = useEditDraft();
  return (
    <fieldset className="setup-choice">
      <legend>Tool calls</legend>
      {TOOL_MODES.map((mode) => (
        <div key={mode.value} className="setup-radio">
          <input
            id={`orchestrator-tool-mode-${mode.value}`}
            type="radio"
            name="orchestrator-tool-mode"
            value={mode.value}
            checked={toolMode === mode.value}
            aria-describedby={`orchestrator-tool-mode-${mode.value}-hint`}
            onChange={() => editDraft((draft) => updateOrchestrator(draft, { toolMode: mode.value }))}
          />
          <div>
            <label htmlFor={`orchestrator-tool-mode-${mode.value}`}>
              {mode.label} <code>{mode.value}</code>
            </label>
            <span id={`orchestrator-tool-mode-${mode.value}-hint`} className="setup-hint muted">
              {mode.explanation}
            </span>
          </div>
        </div>
      ))}
      {problems.map((problem) => (
        <p key={problem} className="setup-field-problems">
          {problem}
        </p>
      ))}
    </fieldset>
  );
}
