// The preference vector for the next run: presets, what each objective weighs, tool and alias
// weights, their normalised shares and the instruction they produce. The session copies the
// vector into the config when Run is pressed.

import { useId } from 'react';
import { objectivePercents } from '../../../workers/engine/preferences.ts';
import { InstructionPreview } from './InstructionPreview.tsx';
import { formatWeight, OBJECTIVES } from './preferenceRows.ts';
import { PresetPicker } from './PresetPicker.tsx';
import { SharesBar } from './SharesBar.tsx';
import { ToolWeights } from './ToolWeights.tsx';
import { WeightSlider } from './WeightSlider.tsx';
import './Preferences.css';
import { usePreferenceActions, usePreferencesStore } from '../../state/context.tsx';

export function PreferencesPanel() {
  const preferenceActions = usePreferenceActions();
  const headingId = useId();
  const vector = usePreferencesStore((state) => state.vector);
  const percents = objectivePercents(vector);

  return (
    <section className="panel preferences-panel" role="group" aria-labelledby={headingId}>
      <h2 id={headingId}>Preferences</h2>
      <p className="muted pref-intro">
        What should the orchestrator aim for? Weights are relative: the percentages are each aim’s share of the three,
        the same split the instruction gives the orchestrator.
      </p>
      <PresetPicker />
      <div className="pref-objectives">
        {OBJECTIVES.map((objective) => (
          <WeightSlider
            key={objective.name}
            label={objective.label}
            detail={objective.hint}
            min={0}
            max={1}
            step={0.05}
            value={vector[objective.name]}
            valueText={`${formatWeight(vector[objective.name])}, ${percents[objective.name]}% of the weight`}
            display={`${percents[objective.name]}%`}
            onChange={(value) => preferenceActions.setObjective(objective.name, value)}
          />
        ))}
      </div>
      <SharesBar vector={vector} />
      <ToolWeights />
      <InstructionPreview />
    </section>
  );
}
