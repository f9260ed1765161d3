// What the engine sends in one model call and reads of one reply besides its characters (the
// backends cap those: workers/backends/http/limits.ts): how long a prompt may grow, how many tool
// calls a reply may hold, how many rejected ones it answers, how deep their arguments may nest.
// A reply is untrusted, and so is a simulated user's turn: a list either builds is looped over by
// the engine, sent to the page in events, stored and drawn, and a conversation resends all of it
// with every call, so each is bounded where it is built. docs/security.md explains each figure.

/** Characters of the messages one model call sends (content and tool-call arguments). About
 * 250,000 tokens: past the window of Orchestrator-8B and of most models a run calls, so no real
 * conversation reaches it; a conversation a hostile model or simulated user inflates (900,000
 * characters a turn) ends there with a `context_length` error instead of resending megabytes
 * with every call. */
export const MAX_PROMPT_CHARS = 1_000_000;

/** Tool calls one reply may hold (a server's `tool_calls` slots, or `<tool_call>` blocks). The
 * reference keeps six of a turn (functionCalling.ts, MAX_CALLS_PER_TURN); no model writes a
 * hundred. Past it the calls beyond are not read, and the reply says so. */
export const MAX_TOOL_CALLS_PER_REPLY = 128;

/** Rejected calls answered one by one (each becomes a note to the orchestrator); the rest are
 * counted in one more. */
export const MAX_REJECTED_PER_REPLY = 16;

/** How deep a call's arguments may nest, as run files may (workers/history/runFile.ts): an event
 * nested thousands deep cannot be cloned to the page or stored, and every walk of it overflows. */
export const MAX_REPLY_NESTING = 128;

/** What one turn of a τ² simulated user may hold: its tool calls (on its own phone) and its
 * characters, text and arguments together. τ² bounds neither; a person at a phone says a few
 * sentences or taps a few settings, while a hostile user model's turn of 60,000 calls was drawn
 * as 60,000 rows, and one of 900,000 characters went to the agent again with every later call.
 * Past either the user has failed at its turn, and the rollout ends with that error. Run files
 * are held to the same count. */
export const MAX_USER_TURN_CALLS = 16;
export const MAX_USER_TURN_CHARS = 50_000;
