import { useId, type ReactNode } from 'react';

interface WeightSliderProps {
  /** The slider's accessible name: what it weighs. */
  label: string;
  /** Said after the label (the model behind an alias, what the weight means). */
  detail?: string;
  min: number;
  max: number;
  step: number;
  value: number;
  /** What a screen reader says for the value, e.g. "0.5, 50% of the weight". */
  valueText: string;
  /** What the row shows at its end (a share, "prefer"…). */
  display: ReactNode;
  onChange: (value: number) => void;
  /** Marks the zero in the middle of an avoid ↔ prefer slider. */
  centred?: boolean;
  indent?: boolean;
}

export function WeightSlider({ label, detail, min, max, step, value, valueText, display, onChange, centred, indent }: WeightSliderProps) {
  const id = useId();
  const detailId = useId();
  return (
    <div className={`pref-slider${indent ? ' pref-slider-indent' : ''}`}>
      <div className="pref-slider-head">
        <label htmlFor={id} className="pref-slider-label">
          {label}
        </label>
        {detail && (
          <span id={detailId} className="pref-slider-detail muted" title={detail}>
            {detail}
          </span>
        )}
        <span className="pref-slider-value" aria-hidden="true">
          {display}
        </span>
      </div>
      <span className={centred ? 'pref-range-track pref-range-centred' : 'pref-range-track'}>
        <input
          id={id}
          type="range"
          min={min}
          max={max}
          step={step}
          value={value}
          aria-valuetext={valueText}
          aria-describedby={detail ? detailId : undefined}
          className="pref-range"
          onChange={(event) => onChange(Number(event.target.value))}
        />
      </span>
    </div>
  );
}
