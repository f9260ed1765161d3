// One rollout's clock, for the tools that stamp the time (ToolScale's bank). The rollout's live
// environment reads the real clock and records each time it hands out, in order; each environment
// its grading makes (the replay of the conversation, the golden actions') hands out the same times
// in the same order (then the last one again; with none recorded, the rollout's start), so a
// grading done seconds later replays the same timestamps. τ²'s tools.py reads datetime.utcnow()
// at every call, so its grading only agrees within one second (docs/evaluation.md). Pure TypeScript.

/** What a tool reads the time from. */
export type Clock = () => Date;

export class RolloutClock {
  readonly #read: Clock;
  readonly #start: Date;
  readonly #times: Date[] = [];

  /** `read`: the real clock unless a test fixes it. */
  constructor(read: Clock = () => new Date()) {
    this.#read = read;
    this.#start = read();
  }

  /** The live environment's clock: the real time, recorded. */
  readonly live: Clock = () => {
    const time = this.#read();
    this.#times.push(time);
    return time;
  };

  /** A fresh clock for one grading environment: the recorded times again, in order. */
  replay(): Clock {
    let next = 0;
    return () => new Date(this.#times[Math.min(next++, this.#times.length - 1)] ?? this.#start);
  }
}
