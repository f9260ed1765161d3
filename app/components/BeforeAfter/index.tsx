// The Task screen's before/after strip (issue 24, item 5): once a second run has finished, this
// run's route, cost and time against the previous one, where the routes part, and the line of
// reasoning that names the preference. In presenter view too, once the class has seen every step.
// Loaded with the second run, not with the first screen.

import { useId, useMemo } from 'react';
import { formatMs, formatUsd } from '../../format.ts';
import { useShownSteps } from '../../hooks/useShownSteps.ts';
import { ColumnHeads } from '../ColumnHeads/index.tsx';
import { beforeAfter, type RouteLine } from '../../state/beforeAfter.ts';
import { useRunStore } from '../../state/context.tsx';
import './BeforeAfter.css';

export function BeforeAfterStrip() {
  const run = useRunStore((state) => state.run);
  const previous = useRunStore((state) => state.previous);
  const { held } = useShownSteps();
  const headingId = useId();
  const compared = useMemo(() => beforeAfter(run, previous), [run, previous]);
  if (!compared || held > 0) return null;
  const { now, before, parting, reason } = compared;
  const rows: Array<[string, RouteLine]> = [
    ['This run', now],
    ['Run before', before],
  ];
  return (
    <section className="panel before-after" aria-labelledby={headingId}>
      <h2 id={headingId}>Before and after</h2>
      <table className="before-after-table">
        <ColumnHeads names={['Run', 'Preference', 'Route', 'Cost', 'Time']} />
        <tbody>
          {rows.map(([label, line]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{line.preference}</td>
              <td>
                <ol className="before-after-route" aria-label={`${label}: route`}>
                  {line.route.map((step, index) => (
                    <li key={index} className={parting !== null && index + 1 >= parting ? 'parted' : undefined}>
                      {step || '—'}
                    </li>
                  ))}
                </ol>
              </td>
              <td>{formatUsd(line.costUsd)}</td>
              <td>{formatMs(line.latencyMs)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="before-after-parting">
        {parting === null ? (
          'Both runs took the same route.'
        ) : (
          <>
            The routes part at <strong>step {parting}</strong>: {now.route[parting - 1] ?? 'no step'} now, {before.route[parting - 1] ?? 'no step'} before.
          </>
        )}
      </p>
      {reason !== null && (
        <blockquote className="before-after-reason" aria-label="Why, in the orchestrator's words">
          {reason}
        </blockquote>
      )}
    </section>
  );
}
