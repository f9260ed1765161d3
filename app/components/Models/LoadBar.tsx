import type { LoadProgress } from '../../../workers/backends/webllm/loadProgress.ts';
import { describeProgress } from './figures.ts';

/** One bar across web-llm's phases (download, load from cache, compile shaders), with words. */
export function LoadBar({ label, progress }: { label: string; progress: LoadProgress | null }) {
  const text = describeProgress(progress);
  const percent = progress ? Math.round(progress.fraction * 100) : null;
  return (
    <div className="model-load">
      <progress
        aria-label={`Loading ${label}`}
        aria-valuetext={percent === null ? text : `${percent}% · ${text}`}
        max={1}
        {...(progress ? { value: progress.fraction } : {})}
      />
      <p className="model-load-text">
        {percent === null ? '' : `${percent}% · `}
        {text}
      </p>
    </div>
  );
}
