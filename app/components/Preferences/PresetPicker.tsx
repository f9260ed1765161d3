import { useId } from 'react';
import { PRESETS } from './preferenceRows.ts';
import { usePreferenceActions, usePreferencesStore } from '../../state/context.tsx';

/** Cheapest, Balanced, Best answer, Fastest: each sets the three objectives (tool weights stay). */
export function PresetPicker() {
  const preferenceActions = usePreferenceActions();
  const preset = usePreferencesStore((state) => state.preset);
  const name = useId();
  const hintId = useId();
  const chosen = PRESETS.find((option) => option.name === preset);
  return (
    <fieldset className="pref-presets" aria-describedby={hintId}>
      <legend>Preset</legend>
      <div className="pref-preset-options">
        {PRESETS.map((option) => (
          <label key={option.name} className="pref-preset" title={option.hint}>
            <input
              type="radio"
              name={name}
              value={option.name}
              checked={preset === option.name}
              onChange={() => preferenceActions.choosePreset(option.name)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      <p id={hintId} className="muted pref-preset-hint">
        {chosen ? `${chosen.label}: ${chosen.hint}.` : 'Custom: set by the sliders below.'}
      </p>
    </fieldset>
  );
}
