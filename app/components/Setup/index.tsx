import { type SetupState } from '../../state/setupStore.ts';
import { splitProblem } from './draftEdits.ts';
import { ExpertsSection } from './ExpertsSection.tsx';
import { KeysSection } from './KeysSection.tsx';
import { OrchestratorSection } from './OrchestratorSection.tsx';
import { PricingSection } from './PricingSection.tsx';
import { ProvidersSection } from './ProvidersSection.tsx';
import './Setup.css';
import { useDraftCheck, useSetupActions, useSetupStore } from '../../state/context.tsx';

function describeSource(source: SetupState['source']): string {
  switch (source.kind) {
    case 'example':
      return 'the built-in example';
    case 'imported':
      return `imported from ${source.fileName}`;
    case 'edited':
      return 'edited here';
    case 'demo':
      return 'the scripted demo (not a model)';
  }
}

/** Where the orchestrator and experts are served, their keys and prices: the config file the CLI reads. */
export function SetupPanel() {
  const setupActions = useSetupActions();
  const draft = useSetupStore((state) => state.draft);
  const source = useSetupStore((state) => state.source);
  const setAside = useSetupStore((state) => state.setAside);
  const check = useDraftCheck(draft);
  const problems = check.ok ? [] : check.problems;

  return (
    <section className="panel setup-panel" aria-labelledby="setup-heading">
      <h2 id="setup-heading">Setup</h2>
      <div className="setup-source">
        <p>
          Config: <strong>{describeSource(source)}</strong>
          {draft.name && <span className="setup-config-name muted">{draft.name}</span>}
        </p>
        {source.kind === 'demo' && (
          <button type="button" onClick={() => setupActions.leaveDemo()}>
            Back to your config
          </button>
        )}
        <button type="button" onClick={() => setupActions.useExample()} disabled={source.kind === 'example'}>
          Reset to example
        </button>
      </div>
      {setAside && (
        <div className="setup-problems" role="alert">
          <p>The config saved in this browser was not loaded, so the built-in example is shown instead:</p>
          <ul>
            {setAside.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          <button type="button" onClick={() => setupActions.dismissSetAside()}>
            Dismiss
          </button>
        </div>
      )}
      {problems.length > 0 && <ProblemList problems={problems} />}
      <OrchestratorSection problems={problems} />
      <KeysSection />
      <ProvidersSection problems={problems} />
      <ExpertsSection problems={problems} />
      <PricingSection problems={problems} />
    </section>
  );
}

function ProblemList({ problems }: { problems: readonly string[] }) {
  return (
    <div className="setup-problems">
      <p>
        {problems.length === 1 ? 'One problem' : `${problems.length} problems`} to fix before a run:
      </p>
      <ul>
        {problems.map((problem) => {
          const { field, message } = splitProblem(problem);
          return (
            <li key={problem}>
              {field && <code>{field}</code>} {message}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
