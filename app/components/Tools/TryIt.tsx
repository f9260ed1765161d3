import { useId, useState } from 'react';
import type { JsonSchema } from '../../../workers/engine/types.ts';
import { formatMs, formatSeconds } from '../../format.ts';
import { STARTER_SAMPLE } from './toolDraft.ts';
import { usePart } from '../../state/context.tsx';
import { createToolSandbox, tryTool, type TryOutcome } from './tryTool.ts';

interface TryItProps {
  name: string;
  description: string;
  /** The tool's schema, or null while it has problems. */
  parameters: JsonSchema | null;
  code: string;
  timeoutMs: number;
}

/** Calls the tool being edited on sample arguments, as a run would, and shows what came back. */
export function TryIt({ name, description, parameters, code, timeoutMs }: TryItProps) {
  const sandbox = usePart(createToolSandbox);
  const id = useId();
  const [sample, setSample] = useState(STARTER_SAMPLE);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<TryOutcome | null>(null);

  const run = async () => {
    if (parameters === null) {
      setOutcome({ kind: 'invalid', problems: ['Fix the parameters schema first: the sample arguments are checked against it.'] });
      return;
    }
    setRunning(true);
    try {
      setOutcome(await tryTool({ name: name.trim() || 'this tool', description, parameters, code }, sample, timeoutMs, sandbox));
    } finally {
      setRunning(false);
    }
  };

  return (
    <div className="tool-try">
      <label htmlFor={`${id}-sample`}>Sample arguments (JSON)</label>
      <textarea
        id={`${id}-sample`}
        className="tool-sample"
        rows={3}
        spellCheck={false}
        value={sample}
        onChange={(event) => setSample(event.target.value)}
      />
      <div className="tool-actions">
        <button type="button" onClick={() => void run()} disabled={running}>
          Try it
        </button>
        <span className="muted">
          {running ? 'Running…' : `Runs in the JavaScript sandbox, stopped after ${formatSeconds(timeoutMs)}.`}
        </span>
      </div>
      <section className="tool-try-result" aria-label="Try it result" aria-live="polite" aria-busy={running}>
        {outcome?.kind === 'invalid' ? (
          <div className="tool-try-error">
            <p>
              <strong>Not run:</strong> the arguments do not fit.
            </p>
            <ul>
              {outcome.problems.map((problem) => (
                <li key={problem}>{problem}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {outcome?.kind === 'ran' ? (
          <>
            <p>
              <strong>{outcome.isError ? 'Error' : 'Result'}</strong>{' '}
              <span className="muted">in {formatMs(outcome.detail.durationMs)} · what the orchestrator reads:</span>
            </p>
            <pre className={outcome.isError ? 'tool-try-error' : undefined}>{outcome.observation}</pre>
            {outcome.detail.logs ? (
              <>
                <p className="muted">Console output</p>
                <pre>{outcome.detail.logs}</pre>
              </>
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}
