import { useId, useState } from 'react';
import {
  addProvider,
  nameProblem,
  parseNumberInput,
  problemsUnder,
  removeProvider,
  updateProvider,
  changeProviderKind,
  type ProviderDraft,
} from './draftEdits.ts';
import { useEditDraft } from './editDraft.ts';
import { Field } from './Field.tsx';
import { endpointOf, kindChoices } from './providerKinds.ts';
import { Section } from './Section.tsx';
import { useSetupStore } from '../../state/context.tsx';

const KINDS = kindChoices();

export function ProvidersSection({ problems }: { problems: readonly string[] }) {
  const providers = useSetupStore((state) => state.draft.providers);
  const names = Object.keys(providers);
  return (
    <Section
      title="Providers"
      summary={`${names.length} ${names.length === 1 ? 'endpoint' : 'endpoints'}`}
      problemCount={problemsUnder(problems, 'providers').length}
    >
      <p className="setup-intro muted">
        Named endpoints the orchestrator and the experts are served from: OpenAI-compatible (vLLM, Ollama, OpenRouter,
        OpenAI…) or Anthropic’s Messages API.
      </p>
      {Object.entries(providers).map(([name, provider]) => (
        <ProviderFields key={name} name={name} provider={provider} problems={problems} />
      ))}
      <AddProvider taken={names} />
    </Section>
  );
}

function ProviderFields({ name, provider, problems }: { name: string; provider: ProviderDraft; problems: readonly string[] }) {
  const editDraft = useEditDraft();
  const at = (field: string) => problemsUnder(problems, `providers.${name}.${field}`);
  const legendId = useId();
  const endpoint = endpointOf(provider);
  return (
    <fieldset className="setup-item" aria-labelledby={legendId}>
      <legend>
        <span id={legendId}>{name}</span>
        <button
          type="button"
          className="setup-remove"
          aria-label={`Remove provider ${name}`}
          onClick={() => editDraft((draft) => removeProvider(draft, name))}
        >
          Remove
        </button>
      </legend>
      <div className="setup-row">
        <Field label="Kind" problems={at('kind')}>
          {(control) => (
            <select
              {...control}
              value={provider.kind}
              onChange={(event) =>
                editDraft((draft) => changeProviderKind(draft, name, event.target.value as ProviderDraft['kind']))
              }
            >
              {KINDS.map((kind) => (
                <option key={kind.value} value={kind.value}>
                  {kind.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Timeout (s)" problems={at('timeoutSeconds')}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              step="any"
              className="setup-number"
              value={provider.timeoutSeconds ?? ''}
              placeholder="120"
              onChange={(event) =>
                editDraft((draft) => updateProvider(draft, name, { timeoutSeconds: parseNumberInput(event.target.value) }))
              }
            />
          )}
        </Field>
      </div>
      {!endpoint.field ? (
        endpoint.note && <p className="muted">{endpoint.note}</p>
      ) : (
      <Field label="Base URL" problems={at('baseUrl')}>
        {(control) => (
          <input
            {...control}
            type="url"
            spellCheck={false}
            value={provider.baseUrl ?? ''}
            placeholder={endpoint.placeholder}
            onChange={(event) =>
              editDraft((draft) => updateProvider(draft, name, { baseUrl: event.target.value.trim() || undefined }))
            }
          />
        )}
      </Field>
      )}
    </fieldset>
  );
}

function AddProvider({ taken }: { taken: readonly string[] }) {
  const editDraft = useEditDraft();
  const [name, setName] = useState('');
  const [kind, setKind] = useState<ProviderDraft['kind']>(KINDS[0]?.value ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const found = nameProblem(name, taken);
    setProblem(found);
    if (found) return;
    editDraft((draft) => addProvider(draft, name, kind));
    setName('');
  };
  return (
    <fieldset className="setup-add">
      <legend>Add a provider</legend>
      <Field label="Name" problems={problem ? [problem] : []}>
        {(control) => (
          <input
            {...control}
            type="text"
            spellCheck={false}
            value={name}
            placeholder="e.g. ollama"
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter') add();
            }}
          />
        )}
      </Field>
      <Field label="Kind">
        {(control) => (
          <select {...control} value={kind} onChange={(event) => setKind(event.target.value as ProviderDraft['kind'])}>
            {KINDS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="button" onClick={add}>
        Add provider
      </button>
    </fieldset>
  );
}
