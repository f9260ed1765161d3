import { useId, type ReactNode } from 'react';

export interface ControlProps {
  id: string;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

/** A labelled control with an optional one-line hint and the config problems that belong to it. */
export function Field({
  label,
  hint,
  problems = [],
  children,
}: {
  label: ReactNode;
  hint?: ReactNode;
  problems?: readonly string[];
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const problemsId = `${id}-problems`;
  const describedBy = [hint ? hintId : null, problems.length > 0 ? problemsId : null].filter(Boolean).join(' ');
  return (
    <div className="setup-field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': problems.length > 0 || undefined, 'aria-describedby': describedBy || undefined })}
      {hint && (
        <p id={hintId} className="setup-hint muted">
          {hint}
        </p>
      )}
      {problems.length > 0 && (
        <ul id={problemsId} className="setup-field-problems">
          {problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
