import { useId, type ReactNode } from 'react';
import { isDetailOpen } from './traceUiStore.ts';
import { useTraceUi, useTraceUiStore } from './useTraceUi.ts';

interface DisclosureProps {
  /** Names the block in the trace's view state (see `detailKey`), so "Expand all" reaches it
   * and it comes back as it was when a virtualised card scrolls back in. */
  detailKey: string;
  label: string;
  /** Short text after the label (a size, a state). */
  meta?: string;
  /** Open until the person (or "Expand all" / "Collapse all") chooses otherwise, e.g. while
   * the text streams. */
  openByDefault: boolean;
  className?: string;
  children: ReactNode;
}

/** A button that shows or hides a block of a step. */
export function Disclosure({ detailKey, label, meta, openByDefault, className, children }: DisclosureProps) {
  const traceUi = useTraceUiStore();
  const open = useTraceUi((state) => isDetailOpen(state, detailKey, openByDefault));
  const bodyId = useId();
  return (
    <div className={`disclosure${className ? ` ${className}` : ''}`}>
      <button
        type="button"
        className="disclosure-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        onClick={() => traceUi.actions.setDetailOpen(detailKey, !open)}
      >
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
