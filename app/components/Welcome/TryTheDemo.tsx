import { useState, type ReactNode } from 'react';
import { DEMO_NOTICE } from '../../../workers/backends/demo/notice.ts';

// Everything it needs from the page's own modules comes in props, so this chunk shares none of
// them and the first load's chunks stay as they were.
interface TryTheDemoProps {
  tryDemo: () => Promise<string | null>;
  models: ReactNode;
  setup: ReactNode;
}

/** One click runs a sample task on the scripted demo: no server, key or download. */
export function TryTheDemo({ tryDemo, models, setup }: TryTheDemoProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const [starting, setStarting] = useState(false);
  // The rules load when someone opens them, not with the first screen.
  const [rules, setRules] = useState<readonly string[] | null>(null);
  const openRules = (open: boolean) => {
    if (open && !rules) void import('../../../workers/backends/demo/rules.ts').then((module) => setRules(module.DEMO_HELP));
  };
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
        corpus and the Python they run are real. For a real orchestrator, load one in this browser ({models}) or
        connect an endpoint ({setup}).
      </p>
      {problem && (
        <p className="task-problem" role="alert">
          {problem}
        </p>
      )}
      <details className="welcome-demo-rules" onToggle={(event) => openRules(event.currentTarget.open)}>
        <summary>How the demo decides (rules written by hand to show the mechanics)</summary>
        {rules?.map((paragraph) => <p key={paragraph}>{paragraph}</p>)}
      </details>
    </div>
  );
}

