import { useId, useState, type ReactNode } from 'react';

interface DisclosureProps {
  label: string;
  /** Short text after the label (a size, a state). */
  meta?: string;
  /** Open until the person chooses otherwise (e.g. while the text streams). */
  openByDefault: boolean;
  className?: string;
  children: ReactNode;
}

/** A button that shows or hides a block; follows `openByDefault` until it is clicked. */
export function Disclosure({ label, meta, openByDefault, className, children }: DisclosureProps) {
  const [choice, setChoice] = useState<boolean | null>(null);
  const open = choice ?? openByDefault;
  const bodyId = useId();
  return (
    <div className={`disclosure${className ? ` ${className}` : ''}`}>
      <button type="button" className="disclosure-toggle" aria-expanded={open} aria-controls={bodyId} onClick={() => setChoice(!open)}>
        <span className="chevron" aria-hidden="true" />
        {label}
        {meta ? <span className="disclosure-meta">{meta}</span> : null}
      </button>
      <div id={bodyId} className="disclosure-body" hidden={!open}>
        {open ? children : null}
      </div>
    </div>
  );
}
