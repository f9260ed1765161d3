import { useState, type ReactNode } from 'react';
import { DEMO_NOTICE, DEMO_RULES } from '../../../workers/backends/demo/notice.ts';
import { tryDemo } from '../../state/session.ts';
import { useDraftCheck } from '../../state/draftCheck.ts';
import { setupActions, useSetupStore } from '../../state/setupStore.ts';
import { viewActions, type SideTab } from '../../state/viewStore.ts';
import { CapabilityReport } from '../Models/CapabilityReport.tsx';
import './Welcome.css';

const SCRIPTED_SERVER_COMMAND =
  'npx tsx e2e/fixtures/scriptedServer.ts --scenario e2e/fixtures/scenarios/cli-paper-prompt.json --port 4010';

/** The first screen: what orchestration is, and what to do next with what is configured. */
export function Welcome() {
  const draft = useSetupStore((state) => state.draft);
  const source = useSetupStore((state) => state.source);
  const heldKeys = useSetupStore((state) => state.heldKeys);
  const setAside = useSetupStore((state) => state.setAside !== null);
  const check = useDraftCheck(draft);
  const orchestrator = check.ok ? check.config.orchestrator : undefined;
  const orchestratorProvider = check.ok ? check.config.providers[check.config.orchestrator.provider] : undefined;
  const orchestratorUrl = orchestratorProvider?.baseUrl;
  const keyless = check.ok
    ? Object.entries(check.config.providers)
        .filter(([name, provider]) => provider.apiKeyEnv !== undefined && !heldKeys.some((held) => held.provider === name))
        .map(([name]) => name)
    : [];

  return (
    <section className="panel welcome" aria-labelledby="welcome-heading">
      <h2 id="welcome-heading">Watch a small model orchestrate bigger ones</h2>
      <p>
        An orchestrator is a small model that solves a task step by step, choosing at each step whether to search, run
        code, or hand the step to a stronger and pricier model. You see every step as it streams, what each one cost,
        and you steer its choices with your preferences for cost, speed and particular tools.
      </p>
      <TryTheDemo />
      <h3>What to do next</h3>
      <ol className="welcome-steps">
        {setAside && (
          <li>
            The config saved in this browser could not be loaded; <TabLink tab="setup">Setup</TabLink> says why.
          </li>
        )}
        {source.kind === 'demo' ? (
          <li>
            The scripted demo is loaded ({DEMO_NOTICE.toLowerCase()}).{' '}
            <button type="button" className="link-button" onClick={() => setupActions.leaveDemo()}>
              Back to your config
            </button>
            , or load a model in <TabLink tab="models">Models</TabLink> or connect an endpoint in{' '}
            <TabLink tab="setup">Setup</TabLink> for a real orchestrator.
          </li>
        ) : source.kind === 'example' ? (
          <li>
            Press <strong>Import config</strong> to load a config file (the same one the command-line runner reads), or
            edit <TabLink tab="setup">Setup</TabLink>. The example now loaded expects Orchestrator-8B served by vLLM at{' '}
            <code>{orchestratorUrl ?? 'http://localhost:8000/v1'}</code>.
          </li>
        ) : check.ok ? (
          <li>
            The orchestrator is <code>{orchestrator?.model}</code>{' '}
            {orchestratorProvider?.kind === 'webllm' ? (
              <>
                in this browser: load it in <TabLink tab="models">Models</TabLink> before you run.
              </>
            ) : (
              <>
                at <code>{orchestratorUrl ?? 'its provider'}</code>.
              </>
            )}
          </li>
        ) : (
          <li>
            The config has problems; <TabLink tab="setup">Setup</TabLink> lists them.
          </li>
        )}
        {keyless.length > 0 && (
          <li>
            Add the API key of {keyless.map((name) => `“${name}”`).join(', ')} in <TabLink tab="setup">Setup</TabLink>.
            Keys stay in this tab’s memory unless you choose to remember them.
          </li>
        )}
        <li>Type a task or pick a sample, choose your preferences, and press Run.</li>
        <li>
          Testing against a server? Run the scripted one the tests use from a clone (<code>{SCRIPTED_SERVER_COMMAND}</code>)
          and import <code>cli/examples/local-scripted.json</code>.
        </li>
      </ol>
      <h3>Models in this browser</h3>
      <CapabilityReport place="welcome" />
    </section>
  );
}

/** One click runs a sample task on the scripted demo: no server, key or download. */
function TryTheDemo() {
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  const start = async () => {
    setStarting(true);
    setProblem(await tryDemo());
    setStarting(false);
  };
  return (
    <div className="welcome-demo">
      <h3>Try it now</h3>
      <p>
        <button type="button" className="primary" onClick={() => void start()} aria-busy={starting}>
          Try the demo
        </button>{' '}
        runs a sample question with nothing installed: no server, no key, no download.
      </p>
      <p className="welcome-demo-notice">
        <strong>{DEMO_NOTICE}.</strong> Scripts stand in for the orchestrator and its experts; the search of the local
        corpus and the Python they run are real. For a real orchestrator, load one in this browser (
        <TabLink tab="models">Models</TabLink>) or connect an endpoint (<TabLink tab="setup">Setup</TabLink>).
      </p>
      {problem && (
        <p className="task-problem" role="alert">
          {problem}
        </p>
      )}
      <details className="welcome-demo-rules">
        <summary>How the demo decides</summary>
        <p>
          These rules are written by hand to show the mechanics: the script reads your preferences from the line added to
          the task and each alias’s price and latency from the tool menu, as a model would. Choose “Cheapest” or “Best
          answer” under Preferences and press Run again to see the route, the cost and the time change.
        </p>
        <ol>
          {DEMO_RULES.map((rule) => (
            <li key={rule}>{rule}</li>
          ))}
        </ol>
        <p>A trained orchestrator learns its own choices; what it decides is what the playground shows with a real model.</p>
      </details>
    </div>
  );
}

/** Opens one of the side tabs, from a sentence that names it. */
function TabLink({ tab, children }: { tab: SideTab; children: ReactNode }) {
  return (
    <button type="button" className="link-button" onClick={() => viewActions.openSideTab(tab)}>
      {children}
    </button>
  );
}
