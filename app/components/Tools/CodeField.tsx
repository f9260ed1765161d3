import { lazy, Suspense, useId } from 'react';
import type { MonacoFieldProps } from './MonacoField.tsx';
import { ProblemList } from './ProblemList.tsx';

// Monaco is large: it loads with the first editor on screen, in chunks of its own.
const MonacoField = lazy(() => import('./MonacoField.tsx'));

interface CodeFieldProps extends Omit<MonacoFieldProps, 'ariaLabel' | 'describedBy'> {
  label: string;
  hint: string;
  problems: readonly string[];
}

/** A labelled Monaco editor with its hint and the problems found in what it holds. */
export function CodeField({ label, hint, problems, ...editor }: CodeFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemsId = `${id}-problems`;
  return (
    <div className="tool-field" role="group" aria-labelledby={`${id}-label`}>
      <span id={`${id}-label`} className="tool-field-label">
        {label}
      </span>
      <Suspense fallback={<p className="monaco-loading muted">Loading the editor…</p>}>
        <MonacoField {...editor} ariaLabel={label} describedBy={`${hintId} ${problemsId}`} />
      </Suspense>
      <p id={hintId} className="tool-hint muted">
        {hint}
      </p>
      <ProblemList id={problemsId} problems={problems} />
    </div>
  );
}
