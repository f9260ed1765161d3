// What the scripted demo says about itself, wherever it appears. No imports: the page shows
// these on its first screen without loading the demo.

/** Shown wherever the demo appears: the status line, each step card, the CLI's trace. */
export const DEMO_NOTICE = 'A scripted demo, not a model';

/** The orchestrator's rules (route.ts) in words, for the demo's help text. */
export const DEMO_RULES = [
  'Search, one look-up at a time, until the documents found answer the question.',
  'Correctness weighs more than cost and latency together ("Best answer"): the priciest alias of each tool, taken as the strongest, and Python to check the figures before answering.',
  'Correctness weighs at least as much as cost and as latency ("Balanced"): the middle-priced alias.',
  'Otherwise the cheapest alias when cost weighs at least as much as latency ("Cheapest"), the fastest when latency weighs more ("Fastest").',
  'An alias or tool set to "avoid" is never chosen (but when every answer alias is avoided one still answers: only an answer ends a run); one set to "prefer" is chosen first, and a preferred enhance_reasoning runs Python under any weights.',
] as const;
