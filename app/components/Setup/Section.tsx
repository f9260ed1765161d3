import { useState, type ReactNode } from 'react';

/** A collapsible part of the setup; its summary says how many problems it holds while closed. */
export function Section({
  title,
  summary,
  problemCount,
  defaultOpen = false,
  children,
}: {
  title: string;
  /** A few words on what is configured, shown beside the title. */
  summary?: string;
  problemCount: number;
  defaultOpen?: boolean;
  children: ReactNode;
}) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <details className="setup-section" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>
        <span className="setup-section-title">{title}</span>
        {summary && <span className="setup-section-summary muted">{summary}</span>}
        {problemCount > 0 && (
          <span className="setup-badge">
            {problemCount} {problemCount === 1 ? 'problem' : 'problems'}
          </span>
        )}
      </summary>
      <div className="setup-section-body">{children}</div>
    </details>
  );
}
