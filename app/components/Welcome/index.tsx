import { Suspense } from 'react';
import { backendKind } from '../../../workers/backends/registry.ts';
import { CapabilityReport } from '../Models/CapabilityReport.tsx';
import { TabLink } from './TabLink.tsx';
import { TryTheDemo } from './TryTheDemo.tsx';
import './Welcome.css';
import { useDraftCheck, useSession, useSetupActions, useSetupStore } from '../../state/context.tsx';

/** The first screen: what orchestration is, "Try the demo" (with the first paint: a presenter
 * clicks it at once; what it runs loads on the click), and, once the config's check has loaded
 * just after, what to do next with what is configured. */
export function Welcome() {
  const session = useSession();
  return (
    <section className="panel welcome" aria-labelledby="welcome-heading">
      <h2 id="welcome-heading">Watch a small model orchestrate bigger ones</h2>
      <p>
        An orchestrator is a small model that solves a task step by step, choosing at each step whether to search, run
        code, or hand the step to a stronger and pricier model. You see every step as it streams, what each one cost,
        and you steer its choices with your preferences for cost, speed and particular tools.
      </p>
      <TryTheDemo tryDemo={session.tryDemo} models={<TabLink tab="models">Models</TabLink>} setup={<TabLink tab="setup">Setup</TabLink>} />
      <Suspense fallback={null}>
        <NextSteps />
      </Suspense>
      <h3>Models in this browser</h3>
      <CapabilityReport place="welcome" />
    </section>
  );
}

/** What to do next with the config now loaded: it waits for the config check's chunk. */
function NextSteps() {
  const setupActions = useSetupActions();
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
    <>
      <h3>What to do next</h3>
      <ol className="welcome-steps">
        {setAside && (
          <li>
            The config saved in this browser could not be loaded; <TabLink tab="setup">Setup</TabLink> says why.
          </li>
        )}
        {source.kind === 'demo' ? (
          <li>
            The scripted demo is loaded.{' '}
            <button type="button" className="link-button" onClick={() => setupActions.leaveDemo()}>
              Back to your config
            </button>
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
            {backendKind(orchestratorProvider?.kind)?.runsIn === 'browser' ? (
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
      </ol>
    </>
  );
}
