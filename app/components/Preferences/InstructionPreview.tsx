import { useId } from 'react';
import { preferenceInstruction } from '../../../workers/engine/preferences.ts';
import { selectInstruction } from '../../state/preferencesStore.ts';
import { usePreferenceActions, usePreferencesStore, useRunStore } from '../../state/context.tsx';

/** The sentence the next run adds to the task, the switch that leaves it out, and when it applies. */
export function InstructionPreview() {
  const preferenceActions = usePreferenceActions();
  const captionId = useId();
  const vector = usePreferencesStore((state) => state.vector);
  const enabled = usePreferencesStore((state) => state.instructionEnabled);
  const instruction = usePreferencesStore(selectInstruction);
  // undefined: no run yet; null: the last run had no instruction.
  const lastInstruction = useRunStore((state) => (state.run ? state.run.instruction : undefined));
  const running = useRunStore((state) => state.run?.status === 'running');
  const wording = preferenceInstruction(vector);
  const changed = lastInstruction !== undefined && lastInstruction !== instruction;

  return (
    <div className="pref-instruction">
      <figure aria-labelledby={captionId}>
        <figcaption id={captionId}>Instruction added to the task</figcaption>
        <blockquote className={enabled ? undefined : 'pref-instruction-off'}>
          {wording ?? 'Nothing is weighted, so there is no instruction.'}
        </blockquote>
      </figure>
      <label className="pref-switch">
        <input
          type="checkbox"
          role="switch"
          checked={enabled}
          onChange={(event) => preferenceActions.setInstructionEnabled(event.target.checked)}
        />
        <span>Add the instruction to the task</span>
      </label>
      {!enabled && (
        <p className="muted pref-note">Left out: the orchestrator gets the task alone and no word of these preferences.</p>
      )}
      <p className="pref-note pref-applies">
        <strong>Applies to the next run.</strong>{' '}
        <span className="muted">
          Run copies these weights into the config
          {running ? '; the run in progress keeps the ones it started with.' : '.'}
          {changed && !running && ' They differ from the last run’s.'}
        </span>
      </p>
    </div>
  );
}
