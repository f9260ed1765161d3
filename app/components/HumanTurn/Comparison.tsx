// Your run beside the orchestrator's on the same task: the routes, the answers, cost and time, and
// the paper's reward of each under the preference as it stands now (move a slider and it is
// scored again), with every term in words.

import { useId, useMemo, useState } from 'react';
import { formatSeconds, formatUsd } from '../../format.ts';
import type { RunView } from '../../state/runView.ts';
import { ColumnHeads } from '../ColumnHeads/index.tsx';
import { useSampleTasks } from '../TaskPanel/useSampleTasks.ts';
import { compareRuns, routeOf, scoredMs, statesAnswer, thinkingMs } from './compareRuns.ts';
import { useComparisonStore, usePreferencesStore, useRunStore } from '../../state/context.tsx';

export function Comparison() {
  const id = useId();
  const you = useComparisonStore((state) => state.you)!;
  const orchestratorRunId = useComparisonStore((state) => state.orchestratorRunId);
  const run = useRunStore((state) => (state.run?.runId === orchestratorRunId ? state.run : null));
  const finished = run?.status === 'finished' ? run : null;
  return (
    <section className="panel human-turn comparison" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>You against the orchestrator</h2>
      {finished ? <Scores you={you} orchestrator={finished} /> : <p aria-live="polite">The orchestrator is working on the same task…</p>}
    </section>
  );
}

function Scores({ you, orchestrator }: { you: RunView; orchestrator: RunView }) {
  const samples = useSampleTasks();
  const reference = samples.status === 'ready' ? samples.tasks.find((task) => task.question.trim() === you.task.trim())?.answer : undefined;
  const [marked, setMarked] = useState<[boolean | null, boolean | null]>([null, null]);
  const judged = (run: RunView) => reference !== undefined && statesAnswer(run.answer, reference);
  const youRight = marked[0] ?? judged(you);
  const orchestratorRight = marked[1] ?? judged(orchestrator);
  const correct = [youRight, orchestratorRight];
  const preference = usePreferencesStore((state) => state.vector);
  const { rewards, terms } = useMemo(
    () => compareRuns({ run: you, correct: youRight }, { run: orchestrator, correct: orchestratorRight }, preference),
    [you, orchestrator, youRight, orchestratorRight, preference],
  );
  const runs = [you, orchestrator];
  const mark = (i: number, value: boolean) => setMarked((now) => (i === 0 ? [value, now[1]] : [now[0], value]));

  return (
    <>
      <table className="comparison-table">
        <ColumnHeads names={['', 'You', 'The orchestrator']} />
        <tbody>
          <RouteRow runs={runs} />
          <tr>
            <th scope="row">Answer</th>
            {runs.map((run, i) => (
              <td key={i}>{run.answer ?? <span className="muted">none ({run.stopReason})</span>}</td>
            ))}
          </tr>
          <tr>
            <th scope="row">Right?</th>
            {runs.map((_, i) => (
              <td key={i}>
                <label>
                  <input type="checkbox" checked={correct[i]} onChange={(event) => mark(i, event.target.checked)} />{' '}
                  {i === 0 ? 'your answer is right' : 'its answer is right'}
                </label>
              </td>
            ))}
          </tr>
          <FigureRows runs={runs} />
          <tr>
            <th scope="row">Reward</th>
            {rewards.map((reward, i) => (
              <td key={i} aria-label={i === 0 ? 'Your reward' : 'The orchestrator’s reward'}>
                <strong>{Math.round(reward * 100) / 100}</strong>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <p className="muted">
        {reference !== undefined
          ? `The sample's answer is "${reference}"; "right" was ticked where an answer states it. Change a tick if you judge otherwise.`
          : 'No reference answer for this task: tick the answers you judge right.'}{' '}
        The paper's reward under the current preference (move the sliders and it is scored again):
      </p>
      <ul className="comparison-terms">
        {terms.map((term) => (
          <li key={term}>{term}</li>
        ))}
      </ul>
    </>
  );
}

/** Each run's route: the tool (and expert) of every step. */
function RouteRow({ runs }: { runs: RunView[] }) {
  return (
    <tr>
      <th scope="row">Route</th>
      {runs.map((run, i) => (
        <td key={i}>
          <ol className="comparison-route">
            {routeOf(run).map((step, j) => (
              <li key={j}>
                {step.tool}
                {step.alias ? ` → ${step.alias}` : ''}
              </li>
            ))}
          </ol>
        </td>
      ))}
    </tr>
  );
}

/** What each run cost and took. */
function FigureRows({ runs }: { runs: RunView[] }) {
  const thinking = thinkingMs(runs[0]!);
  return (
    <>
      <tr>
        <th scope="row">Cost</th>
        {runs.map((run, i) => (
          <td key={i}>{formatUsd(run.totals?.costUsd ?? run.totalUsd)}</td>
        ))}
      </tr>
      <tr>
        <th scope="row">Time (tools and models)</th>
        {runs.map((run, i) => (
          <td key={i}>{formatSeconds(scoredMs(run))}</td>
        ))}
      </tr>
      {thinking > 0 ? (
        <tr>
          <th scope="row">Your thinking time (not scored)</th>
          <td>{formatSeconds(thinking)}</td>
          <td>—</td>
        </tr>
      ) : null}
    </>
  );
}
