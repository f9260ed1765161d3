import type { PreferenceVector } from '../../../workers/engine/preferences.ts';
import { normalizedShares } from '../../../workers/engine/preferences.ts';
import { formatShare, OBJECTIVES } from './preferenceRows.ts';

interface Segment {
  key: string;
  label: string;
  share: number;
  className: string;
}

/** The normalised shares as one bar: each objective, then tool weights (prefer / avoid). */
export function SharesBar({ vector }: { vector: PreferenceVector }) {
  const shares = normalizedShares(vector);
  const segments: Segment[] = [
    ...OBJECTIVES.map((objective, index) => ({
      key: objective.name,
      label: objective.label,
      share: shares[objective.name],
      className: `pref-share-${index + 1}`,
    })),
    ...Object.entries(shares.tools).map(([name, share]) => ({
      key: `tool:${name}`,
      label: `${share > 0 ? 'prefer' : 'avoid'} ${name}`,
      share: Math.abs(share),
      className: share > 0 ? 'pref-share-prefer' : 'pref-share-avoid',
    })),
  ].filter((segment) => segment.share > 0);
  const description =
    segments.length === 0 ? 'Nothing is weighted.' : segments.map((segment) => `${segment.label} ${formatShare(segment.share)}`).join(', ');
  return (
    <div className="pref-shares">
      <div className="pref-shares-bar" role="img" aria-label={`Shares of the weight: ${description}`}>
        {segments.map((segment) => (
          <span
            key={segment.key}
            className={`pref-share ${segment.className}`}
            style={{ flexGrow: segment.share }}
            title={`${segment.label}: ${formatShare(segment.share)}`}
          />
        ))}
      </div>
      <p className="pref-shares-legend muted" aria-hidden="true">
        {segments.length === 0
          ? 'Nothing is weighted.'
          : segments.map((segment) => (
              <span key={segment.key}>
                <span className={`pref-share-dot ${segment.className}`} />
                {segment.label} {formatShare(segment.share)}
              </span>
            ))}
      </p>
      {Object.keys(shares.tools).length > 0 && (
        <p className="muted pref-note">
          Tool weights take their share too; the instruction gives the three objectives’ split among themselves.
        </p>
      )}
    </div>
  );
}
