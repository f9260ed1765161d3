// The scripted orchestrator's rules (route.ts) in words, written by hand. Apart from notice.ts so the first
// screen does not carry them: the demo's help loads them when opened.

/** The demo's help text: how it decides, each rule a paragraph. */
export const DEMO_HELP = [
  'The script reads your preferences from the line added to the task, and each alias’s price and latency from the tool menu, as a model would. Choose “Cheapest”, “Fastest” or “Best answer” under Preferences and press Run again to see the route, the cost and the time change. A trained orchestrator learns its own choices: load a real one to see them.',
  'Search, one look-up at a time, until the documents found answer the question.',
  'Correctness weighs more than cost and latency together ("Best answer"): the priciest alias of each tool, taken as the strongest, and Python to check the figures before answering.',
  'Correctness weighs at least as much as cost and as latency ("Balanced"): the middle-priced alias.',
  'Otherwise the cheapest alias when cost weighs at least as much as latency ("Cheapest"), the fastest when latency weighs more ("Fastest").',
  'An alias or tool set to "avoid" is never chosen (but when every answer alias is avoided one still answers: only an answer ends a run); one set to "prefer" is chosen first, and a preferred enhance_reasoning runs Python under any weights.',
] as const;
