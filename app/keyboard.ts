// What the page's single-key shortcuts (j/k in the trace, P and Space for presenter view) leave
// alone: keys typed into a field.

// Monaco (the Tools editor) types through the EditContext API in Chromium: the element with focus
// is neither a field nor contenteditable, so the editor's whole box counts.
const TAKES_KEYS = 'input, textarea, select, [contenteditable=""], [contenteditable="true"], [role="textbox"], .monaco-editor, .monaco-editor *';

/** The element takes typed text (or a choice from the keyboard): a shortcut must not fire in it. */
export function typesText(element: Element): boolean {
  return element.matches(TAKES_KEYS);
}
