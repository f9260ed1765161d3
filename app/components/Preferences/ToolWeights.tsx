import { useState } from 'react';
import { describeToolWeight, formatWeight, type WeighedTarget } from './preferenceRows.ts';
import { useWeighedTargets } from './useWeighedTargets.ts';
import { WeightSlider } from './WeightSlider.tsx';
import { useAppStores, usePreferenceActions, usePreferencesStore } from '../../state/context.tsx';

/** Beyond this many sliders the list starts folded (unless something in it is weighted). */
const OPEN_UP_TO = 8;

/** One avoid ↔ prefer slider per tool and per alias of the current config. */
export function ToolWeights() {
  const preferenceActions = usePreferenceActions();
  const stores = useAppStores();
  const vector = usePreferencesStore((state) => state.vector);
  const { groups, others, valid } = useWeighedTargets();
  const count = groups.reduce((sum, group) => sum + 1 + group.aliases.length, 0) + others.length;
  const weighted = Object.keys(vector.tools).length;
  const unfoldedAtFirst = count <= OPEN_UP_TO || weighted > 0;
  // Folded or not follows the size of the list until the person toggles it; a new config (a
  // different list) starts over.
  const [fold, setFold] = useState({ count, open: unfoldedAtFirst });
  if (fold.count !== count) setFold({ count, open: unfoldedAtFirst });
  const open = fold.count === count ? fold.open : unfoldedAtFirst;

  const row = (target: WeighedTarget, indent: boolean, toolDetail?: string) => {
    const weight = vector.tools[target.name] ?? 0;
    const words = describeToolWeight(weight);
    const detail = target.kind === 'alias' ? [target.model, target.description].filter(Boolean).join(' — ') : toolDetail;
    return (
      <WeightSlider
        key={target.name}
        label={target.name}
        detail={detail}
        min={-1}
        max={1}
        step={0.1}
        value={weight}
        centred
        indent={indent}
        valueText={weight === 0 ? 'neutral' : `${words}, ${formatWeight(weight, true)}`}
        display={weight === 0 ? <span className="muted">neutral</span> : <span className={weight > 0 ? 'pref-prefer' : 'pref-avoid'}>{words}</span>}
        onChange={(value) => preferenceActions.setToolWeight(target.name, value)}
      />
    );
  };

  return (
    <details className="pref-tools" open={open} onToggle={(event) => setFold({ count, open: event.currentTarget.open })}>
      <summary>
        Tools and experts <span className="muted">({count}{weighted > 0 ? `, ${weighted} weighted` : ''})</span>
      </summary>
      <p className="muted pref-tools-hint">
        Slide left to avoid a tool or expert, right to prefer it. These are not part of the percentages above: the
        instruction lists them as “prefer …” or “avoid …”, and the orchestrator reads them as advice.
      </p>
      {!valid && <p className="muted pref-tools-hint">The setup has a problem, so its tools cannot be listed: fix it in Setup.</p>}
      <div className="pref-scale" aria-hidden="true">
        <span>← avoid</span>
        <span>neutral</span>
        <span>prefer →</span>
      </div>
      {groups.map((group) => (
        <div key={group.tool.name} className="pref-tool-group">
          {row(group.tool, false, group.aliases.length > 0 ? 'the tool, whichever expert runs it' : undefined)}
          {group.aliases.map((alias) => row(alias, true))}
        </div>
      ))}
      {others.length > 0 && (
        <div className="pref-tool-group">
          <p className="muted pref-tools-hint">Weighted, but not in the current setup:</p>
          {others.map((other) => row(other, false))}
        </div>
      )}
      {weighted > 0 && (
        <button
          type="button"
          className="pref-reset"
          onClick={() => {
            const { preset, instructionEnabled } = stores.preferences.getState();
            preferenceActions.load({ ...vector, tools: {} }, preset, instructionEnabled);
          }}
        >
          Reset tool weights
        </button>
      )}
    </details>
  );
}
