// What the page's single-key shortcuts (j/k in the trace, P and Space for presenter view) leave
// alone: keys typed into a field.

/** The element takes typed text (or a choice from the keyboard): a shortcut must not fire in it. */
export function typesText(element: Element): boolean {
  return element.matches('input, textarea, select, [contenteditable=""], [contenteditable="true"]');
}
