// The paper's group rewards, task by task: for a task run two or more times under a policy, each
// rollout's reward and advantage and the normalised features they come from — what GRPO-style
// training would have made of the group (docs/evaluation.md, "Reading the charts").

import { useMemo, useState } from 'react';
import type { TaskGroup } from '../../../workers/eval/results.ts';
import { groupViews } from './evalView.ts';

/** Groups drawn at once (the rest: export the JSON, which has them all). */
const GROUPS_SHOWN = 40;
/** Rollouts of a group drawn: a results file may hold 72,000 of one task. */
const ROLLOUTS_SHOWN = 100;

export function GroupRewards({ groups: taskGroups }: { groups: readonly TaskGroup[] }) {
  const [open, setOpen] = useState(false);
  const groups = useMemo(() => (open ? groupViews(taskGroups) : []), [open, taskGroups]);
  const count = taskGroups.filter((group) => group.reward).length;
  if (count === 0) return null;
  return (
    <details className="eval-groups" onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Group rewards per task ({count})</summary>
      {open && (
        <>
          <p className="eval-hint">
            Each rollout’s reward under the policy’s preference, and its advantage: how far it stands above or below its group, in the group’s standard
            deviations (clipped to ±3). Features are normalised across the group to 0–1; a feature with the same value in every rollout is left out.
          </p>
          {groups.slice(0, GROUPS_SHOWN).map((group) => (
            <section key={group.key} className="eval-group" aria-label={`Group ${group.taskId} under ${group.policy}`}>
              <h4>
                {group.taskId} · {group.policy}
              </h4>
              <p className="eval-hint">{group.line}</p>
              <table className="eval-table">
                <thead>
                  <tr>
                    <th scope="col">Rollout</th>
                    <th scope="col">Reward</th>
                    <th scope="col">Advantage</th>
                    {group.features.map((feature) => (
                      <th key={feature} scope="col">
                        {feature}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {group.rows.slice(0, ROLLOUTS_SHOWN).map((row) => (
                    <tr key={row.rollout}>
                      <th scope="row">#{row.rollout}</th>
                      <td>{row.reward}</td>
                      <td>{row.advantage}</td>
                      {row.values.map((value, index) => (
                        <td key={group.features[index]}>{value}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
              {group.rows.length > ROLLOUTS_SHOWN && (
                <p className="eval-hint">
                  The first {ROLLOUTS_SHOWN} of its {group.rows.length.toLocaleString('en-US')} rollouts: export the JSON for the rest.
                </p>
              )}
            </section>
          ))}
          {groups.length > GROUPS_SHOWN && <p className="eval-hint">{groups.length - GROUPS_SHOWN} more groups: export the JSON.</p>}
        </>
      )}
    </details>
  );
}
