// What the scripted demo says about itself, wherever it appears. No imports: the page's first
// screen shows it without loading the demo.

/** Shown wherever the demo appears: the status line, each step card, the CLI's trace. */
export const DEMO_NOTICE = 'A scripted demo, not a model';
