// Where the main thread's long tasks come from: a V8 CPU profile (CDP Profiler) of the page cut
// into busy stretches (consecutive samples with no idle one between them), the stretches over
// 50 ms kept, and their time summed per function, mapped back to our sources by the build's
// source maps.

import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import { join } from 'node:path';
import { ownerOf, repoRelativeSource } from './bundleSize.ts';

/** The parts of a CDP `Profiler.Profile` this reads. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
    children?: number[];
  }>;
  /** Microseconds. */
  startTime: number;
  endTime: number;
  samples?: number[];
  /** Microseconds since the previous sample (the first since startTime). */
  timeDeltas?: number[];
}

export interface BusyStretch {
  /** Milliseconds since the profile started. */
  startMs: number;
  durationMs: number;
}

export interface TimeShare {
  /** "name (source:line)" for a function; a package or folder for an owner. */
  label: string;
  ms: number;
}

export interface LongTaskAttribution {
  /** Busy stretches of at least `thresholdMs` (a long task, or back-to-back tasks with no idle
   * sample between them). */
  stretches: BusyStretch[];
  busyMs: number;
  /** Self time per function inside the stretches, largest first. A browser function (layout,
   * DOM) is named with the nearest script function that called it: "getBoundingClientRect ← f (…)". */
  selfTime: TimeShare[];
  /** Self time per package or folder of ours, "(program)" (the browser's own work outside
   * scripts: style, layout, paint, event dispatch) and "(garbage collector)". */
  byOwner: TimeShare[];
  /** Time per the innermost package or folder on the stack that is not React itself nor the
   * browser: whose components and callbacks React and the browser were busy with. What has only
   * React below the root is "(React: reconcile and commit)". */
  byCaller: TimeShare[];
  /** Time per function of our own code (app/, workers/, tools/) on the stack, counted once per
   * sample at the innermost such frame: which of our functions the time was spent under. */
  ownCode: TimeShare[];
  /** Time with none of our functions on the stack (a library or the browser on its own). */
  outsideOwnCodeMs: number;
}

/** Maps a generated position (a script URL, 0-based line and column) to "source:line". */
export type LocationResolver = (url: string, line: number, column: number) => { source: string; line: number; name?: string } | undefined;

const IDLE = '(idle)';
const OUR_CODE = /^(app|workers|tools)\//;
const REACT_OWNERS = new Set(['react', 'react-dom', 'scheduler', 'use-sync-external-store']);
const REACT_ITSELF = '(React: reconcile and commit)';

// eslint-disable-next-line max-lines-per-function -- one pass over the profile's samples that fills several tallies at once
export function attributeLongTasks(
  profile: CpuProfile,
  resolve: LocationResolver,
  thresholdMs = 50,
  top = 12,
): LongTaskAttribution {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  // Sample i is taken at times[i] and stands for the time until the next sample.
  const times: number[] = [];
  let clock = profile.startTime;
  for (const [index] of samples.entries()) {
    clock += deltas[index] ?? 0;
    times.push(clock);
  }
  const durationOf = (index: number) => ((times[index + 1] ?? profile.endTime) - (times[index] ?? profile.endTime)) / 1000;
  const isIdle = (index: number) => nodes.get(samples[index] ?? -1)?.callFrame.functionName === IDLE;

  const stretches: BusyStretch[] = [];
  const busySamples: number[] = [];
  let first = -1;
  for (let index = 0; index <= samples.length; index++) {
    const busy = index < samples.length && !isIdle(index);
    if (busy && first < 0) first = index;
    if (busy || first < 0) continue;
    const startUs = times[first] ?? profile.startTime;
    const endUs = times[index] ?? profile.endTime;
    const durationMs = (endUs - startUs) / 1000;
    if (durationMs >= thresholdMs) {
      stretches.push({ startMs: (startUs - profile.startTime) / 1000, durationMs });
      for (let inside = first; inside < index; inside++) busySamples.push(inside);
    }
    first = -1;
  }

  interface FrameLabel {
    label: string;
    owner: string;
    ours: boolean;
    /** A browser function called from script (no URL, not a "(…)" pseudo-frame). */
    native: boolean;
  }
  const labels = new Map<number, FrameLabel>();
  const labelOf = (nodeId: number): FrameLabel => {
    const known = labels.get(nodeId);
    if (known) return known;
    const frame = nodes.get(nodeId)?.callFrame;
    let result: FrameLabel = { label: '(unknown)', owner: '(unknown)', ours: false, native: false };
    if (frame) {
      const original = frame.url ? resolve(frame.url, frame.lineNumber, frame.columnNumber) : undefined;
      const name = original?.name || frame.functionName || '(anonymous)';
      const where = original ? `${original.source}:${original.line + 1}` : frame.url ? `${frame.url}:${frame.lineNumber + 1}` : '';
      const pseudo = /^\(.*\)$/.test(frame.functionName);
      result = {
        label: where ? `${name} (${where})` : name,
        owner: original ? ownerOf(original.source) : frame.url ? frame.url : pseudo ? frame.functionName : '(browser APIs called from script)',
        ours: original !== undefined && OUR_CODE.test(original.source),
        native: !frame.url && !pseudo,
      };
    }
    labels.set(nodeId, result);
    return result;
  };
  /** The leaf's label; a browser function gets its nearest caller with a script location. */
  const leafLabel = (nodeId: number): string => {
    const leaf = labelOf(nodeId);
    if (!leaf.native) return leaf.label;
    for (let id = parent.get(nodeId); id !== undefined; id = parent.get(id)) {
      const caller = nodes.get(id)?.callFrame;
      if (caller?.url) return `${leaf.label} ← ${labelOf(id).label}`;
    }
    return leaf.label;
  };

  const callerOf = (nodeId: number): string => {
    for (let id: number | undefined = nodeId; id !== undefined; id = parent.get(id)) {
      const frame = nodes.get(id)?.callFrame;
      const label = labelOf(id);
      if (frame?.url && !REACT_OWNERS.has(label.owner)) return label.owner;
    }
    const leaf = labelOf(nodeId);
    return leaf.native || REACT_OWNERS.has(leaf.owner) ? REACT_ITSELF : leaf.owner;
  };

  const self = new Map<string, number>();
  const owners = new Map<string, number>();
  const callers = new Map<string, number>();
  const own = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let busyMs = 0;
  let outsideOwnCodeMs = 0;
  for (const index of busySamples) {
    const nodeId = samples[index];
    if (nodeId === undefined) continue;
    const ms = durationOf(index);
    busyMs += ms;
    add(self, leafLabel(nodeId), ms);
    add(owners, labelOf(nodeId).owner, ms);
    add(callers, callerOf(nodeId), ms);
    let id: number | undefined = nodeId;
    while (id !== undefined && !labelOf(id).ours) id = parent.get(id);
    if (id === undefined) outsideOwnCodeMs += ms;
    else add(own, labelOf(id).label, ms);
  }
  const ranked = (map: Map<string, number>) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([label, ms]) => ({ label, ms }));
  return {
    stretches,
    busyMs,
    selfTime: ranked(self),
    byOwner: ranked(owners),
    byCaller: ranked(callers),
    ownCode: ranked(own),
    outsideOwnCodeMs,
  };
}

/** Resolves script URLs served from `origin` through the source maps beside them in `distDir`. */
export function sourceMapResolver(origin: string, distDir: string): LocationResolver {
  const maps = new Map<string, { map: SourceMap; path: string } | null>();
  const mapFor = (url: string) => {
    if (maps.has(url)) return maps.get(url) ?? null;
    let found: { map: SourceMap; path: string } | null = null;
    if (url.startsWith(origin)) {
      const path = join(distDir, `${new URL(url).pathname}.map`);
      if (existsSync(path)) found = { map: new SourceMap(JSON.parse(readFileSync(path, 'utf8')) as SourceMapPayload), path };
    }
    maps.set(url, found);
    return found;
  };
  return (url, line, column) => {
    const found = mapFor(url);
    const entry = found?.map.findEntry(line, column) as { originalSource?: string; originalLine?: number; name?: string } | undefined;
    if (!found || !entry?.originalSource || entry.originalLine === undefined) return undefined;
    const source = repoRelativeSource(found.path, entry.originalSource);
    return { source, line: entry.originalLine, ...(entry.name ? { name: entry.name } : {}) };
  };
}

/** The attribution as the benches print it: indented lines, largest shares first. */
export function formatAttribution(p: LongTaskAttribution): string[] {
  const ms = (value: number) => `${value.toFixed(0)} ms`;
  const shares = (list: TimeShare[]) => list.map((share) => `    ${ms(share.ms).padStart(7)}  ${share.label}`);
  const lines = [`  CPU profile: ${p.stretches.length} busy stretches ≥ 50 ms, ${ms(p.busyMs)} in all`];
  if (p.byOwner.length) lines.push('  self time by package or folder:', ...shares(p.byOwner));
  if (p.byCaller.length) lines.push('  by the code React and the browser were working for:', ...shares(p.byCaller));
  if (p.selfTime.length) lines.push('  self time by function:', ...shares(p.selfTime));
  if (p.ownCode.length) {
    lines.push('  under our own functions (innermost on the stack):', ...shares(p.ownCode));
    lines.push(`    ${ms(p.outsideOwnCodeMs).padStart(7)}  with none of ours on the stack`);
  }
  return lines;
}
