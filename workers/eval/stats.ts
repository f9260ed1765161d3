// The statistics an evaluation reports: a confidence interval for accuracy and the Pareto front
// over cost and accuracy.

/** z for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

/**
 * The Wilson score interval for a proportion (95% unless `z` says otherwise). Unlike the normal
 * approximation ("p ± 1.96·√(p(1−p)/n)") it stays inside [0, 1] and is honest at 0 or n successes
 * and for small n, which is what a 20-task suite gives. Empty: [0, 1], nothing is known.
 */
export function wilsonInterval(successes: number, n: number, z = Z95): Interval {
  if (n <= 0) return { low: 0, high: 1 };
  const p = successes / n;
  const z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // Rounding can leave the bounds a hair outside [0, 1] or off the exact ends.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
  };
}

export interface CostAccuracyPoint {
  name: string;
  /** Mean cost per task; null when unknown (such a point is left off the front). */
  costUsd: number | null;
  accuracy: number;
}

/**
 * The names of the points no other point beats: none is both at most as costly and at least as
 * accurate, and strictly better in one of the two. Sorted by cost, cheapest first (the paper's
 * Fig. 6 reads the front left to right). Ties (the same cost and accuracy) all stay on it.
 */
export function paretoFront(points: readonly CostAccuracyPoint[]): string[] {
  // One sweep in order of cost (n log n; comparing every pair froze the page for 40,000 policies):
  // a point stays when it is the most accurate of its cost and beats everything cheaper.
  const known = points
    .filter((p): p is CostAccuracyPoint & { costUsd: number } => p.costUsd !== null)
    .sort((a, b) => a.costUsd - b.costUsd || b.accuracy - a.accuracy || (a.name < b.name ? -1 : 1));
  const front: string[] = [];
  let bestCheaper = -Infinity;
  for (let start = 0; start < known.length; ) {
    let end = start;
    while (end < known.length && known[end]!.costUsd === known[start]!.costUsd) end++;
    const best = known[start]!.accuracy;
    if (best > bestCheaper) for (let i = start; i < end && known[i]!.accuracy === best; i++) front.push(known[i]!.name);
    bestCheaper = Math.max(bestCheaper, best);
    start = end;
  }
  return front;
}

/** τ²-Bench's pass^k of one task: C(successes, k) / C(trials, k), the chance that k of its trials
 * drawn without replacement all succeeded. */
export function passHatK(trials: number, successes: number, k: number): number {
  if (trials < k) throw new Error(`pass^${k} needs at least ${k} trials; this task has ${trials}`);
  const comb = (n: number, r: number) => {
    if (r < 0 || r > n) return 0;
    let out = 1;
    for (let i = 1; i <= r; i++) out = (out * (n - r + i)) / i;
    return out;
  };
  return comb(successes, k) / comb(trials, k);
}

/** pass^1…pass^K of one task together, in time linear in K (one task of 72,000 rollouts asked for
 * each k apart took O(K²), 12 s for 40,000): C(s, k) / C(n, k) is the product of (s - i) / (n - i)
 * for i below k, so each is the one before times one factor; the binomials themselves, which pass
 * a float's range near n = 1,030, are never formed. */
export function passHatKsOf(trials: number, successes: number, maxK: number): number[] {
  if (trials < maxK) throw new Error(`pass^${maxK} needs at least ${maxK} trials; this task has ${trials}`);
  const out: number[] = [];
  let value = 1;
  for (let i = 0; i < maxK; i++) {
    value = successes - i <= 0 ? 0 : (value * (successes - i)) / (trials - i);
    out.push(value);
  }
  return out;
}

/** τ²'s pass^1…pass^K over tasks: each task's pass^k (passHatKsOf), averaged; K is the fewest
 * trials any task has (as τ²'s metrics cap it); none without tasks. Linear in tasks × K, which is
 * at most the rollouts. */
export function meanPassHatKs(tasks: ReadonlyArray<{ trials: number; successes: number }>): number[] {
  if (tasks.length === 0) return [];
  const maxK = tasks.reduce((fewest, task) => Math.min(fewest, task.trials), Infinity);
  const sums = new Array<number>(maxK).fill(0);
  for (const task of tasks) {
    const values = passHatKsOf(task.trials, task.successes, maxK);
    for (let i = 0; i < maxK; i++) sums[i]! += values[i]!;
  }
  return sums.map((sum) => sum / tasks.length);
}
