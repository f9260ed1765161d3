import type { PreferenceVector } from '../../../workers/engine/preferences.ts';
import { objectivePercents } from '../../../workers/engine/preferences.ts';
import { OBJECTIVES } from './preferenceRows.ts';

/** The three aims' split as one bar, in the instruction's own whole percents. */
export function SharesBar({ vector }: { vector: PreferenceVector }) {
  const percents = objectivePercents(vector);
  const segments = OBJECTIVES.map((objective, index) => ({
    key: objective.name,
    label: objective.label,
    percent: percents[objective.name],
    className: `pref-share-${index + 1}`,
  })).filter((segment) => segment.percent > 0);
  const description =
    segments.length === 0 ? 'Nothing is weighted.' : segments.map((segment) => `${segment.label} ${segment.percent}%`).join(', ');
  return (
    <div className="pref-shares">
      <div className="pref-shares-bar" role="img" aria-label={`Shares of the weight: ${description}`}>
        {segments.map((segment) => (
          <span
            key={segment.key}
            className={`pref-share ${segment.className}`}
            style={{ flexGrow: segment.percent }}
            title={`${segment.label}: ${segment.percent}%`}
          />
        ))}
      </div>
      <p className="pref-shares-legend muted" aria-hidden="true">
        {segments.length === 0
          ? 'Nothing is weighted.'
          : segments.map((segment) => (
              <span key={segment.key}>
                <span className={`pref-share-dot ${segment.className}`} />
                {segment.label} {segment.percent}%
              </span>
            ))}
      </p>
    </div>
  );
}
