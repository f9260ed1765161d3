import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { attributeLongTasks, sourceMapResolver, type CpuProfile, type LocationResolver } from './longTaskProfile.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 });

// root → idle | program | dispatch (app chunk) → renderList (app chunk) → c (react-dom) → getBoundingClientRect
//      | commitRoot (react-dom) → setAttribute
const PROFILE_NODES: CpuProfile['nodes'] = [
  { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 8] },
  { id: 2, callFrame: frame('(idle)') },
  { id: 3, callFrame: frame('(program)') },
  { id: 4, callFrame: frame('a', 'http://x/assets/main.js', 10), children: [5] },
  { id: 5, callFrame: frame('b', 'http://x/assets/main.js', 20), children: [6] },
  { id: 6, callFrame: frame('c', 'http://x/assets/vendor.js', 5), children: [7] },
  { id: 7, callFrame: frame('getBoundingClientRect') },
  { id: 8, callFrame: frame('commitRoot', 'http://x/assets/vendor.js', 5), children: [9] },
  { id: 9, callFrame: frame('setAttribute') },
];

const resolve: LocationResolver = (url, line) => {
  if (url.endsWith('main.js') && line === 10) return { source: 'app/state/session.ts', line: 41, name: 'dispatch' };
  if (url.endsWith('main.js') && line === 20) return { source: 'app/components/Trace/List.tsx', line: 7, name: 'renderList' };
  if (url.endsWith('vendor.js')) return { source: 'node_modules/react-dom/cjs/react-dom.js', line: 99 };
  return undefined;
};

/** A sample every 10 ms from 10 ms on, the last one lasting 10 ms too: `pattern` gives each sample's node. */
function profileOf(pattern: number[]): CpuProfile {
  return {
    nodes: PROFILE_NODES,
    startTime: 1_000_000,
    endTime: 1_000_000 + (pattern.length + 1) * 10_000,
    samples: pattern,
    timeDeltas: pattern.map(() => 10_000),
  };
}

describe('attributeLongTasks', () => {
  it('keeps only busy stretches of 50 ms or more and sums their time per function', () => {
    // idle, 3 busy (30 ms: short), idle, 8 busy (80 ms: long), idle
    const profile = profileOf([2, 6, 6, 6, 2, 5, 6, 6, 7, 3, 4, 4, 9, 2]);
    const result = attributeLongTasks(profile, resolve);
    expect(result.stretches).toEqual([{ startMs: 60, durationMs: 80 }]);
    expect(result.busyMs).toBe(80);
    expect(result.selfTime).toEqual([
      { label: 'c (node_modules/react-dom/cjs/react-dom.js:100)', ms: 20 },
      { label: 'dispatch (app/state/session.ts:42)', ms: 20 },
      { label: 'renderList (app/components/Trace/List.tsx:8)', ms: 10 },
      // A browser function is named with the script function that called it.
      { label: 'getBoundingClientRect ← c (node_modules/react-dom/cjs/react-dom.js:100)', ms: 10 },
      { label: '(program)', ms: 10 },
      { label: 'setAttribute ← commitRoot (node_modules/react-dom/cjs/react-dom.js:100)', ms: 10 },
    ]);
    expect(result.byOwner).toEqual([
      { label: 'react-dom', ms: 20 },
      { label: '(browser APIs called from script)', ms: 20 },
      { label: 'app/state', ms: 20 },
      { label: 'app/components/Trace', ms: 10 },
      { label: '(program)', ms: 10 },
    ]);
    // React's and the browser's time goes to the code they ran for; with none, to React itself.
    expect(result.byCaller).toEqual([
      { label: 'app/components/Trace', ms: 40 },
      { label: 'app/state', ms: 20 },
      { label: '(program)', ms: 10 },
      { label: '(React: reconcile and commit)', ms: 10 },
    ]);
    // Library time is charged to the innermost of our own functions that called it.
    expect(result.ownCode).toEqual([
      { label: 'renderList (app/components/Trace/List.tsx:8)', ms: 40 },
      { label: 'dispatch (app/state/session.ts:42)', ms: 20 },
    ]);
    expect(result.outsideOwnCodeMs).toBe(20);
  });

  it('finds nothing in an idle or empty profile', () => {
    expect(attributeLongTasks(profileOf([2, 2, 2]), resolve)).toEqual({
      stretches: [],
      busyMs: 0,
      selfTime: [],
      byOwner: [],
      byCaller: [],
      ownCode: [],
      outsideOwnCodeMs: 0,
    });
    expect(attributeLongTasks(profileOf([]), resolve).stretches).toEqual([]);
  });

  it('closes a busy stretch that runs to the end of the profile', () => {
    expect(attributeLongTasks(profileOf([2, 6, 6, 6, 6, 6]), resolve).stretches).toEqual([{ startMs: 20, durationMs: 50 }]);
  });
});

describe('sourceMapResolver', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('maps a served script position to the original source through the map beside it', () => {
    dir = mkdtempSync(join(tmpdir(), 'resolver-test-'));
    mkdirSync(join(dir, 'assets'));
    // Generated line 0, column 0 → source 0, line 4, column 0, name 0. The build lies outside the
    // repository, so its map names our sources by a path that leads back into it.
    const source = fileURLToPath(new URL('../app/x.ts', import.meta.url));
    writeFileSync(
      join(dir, 'assets', 'main.js.map'),
      JSON.stringify({ version: 3, sources: [source], names: ['renderRow'], mappings: 'AAIAA' }),
    );
    const resolveLocation = sourceMapResolver('http://127.0.0.1:9', dir);
    expect(resolveLocation('http://127.0.0.1:9/assets/main.js', 0, 0)).toEqual({ source: 'app/x.ts', line: 4, name: 'renderRow' });
    expect(resolveLocation('http://127.0.0.1:9/assets/none.js', 0, 0)).toBeUndefined();
    expect(resolveLocation('http://elsewhere/assets/main.js', 0, 0)).toBeUndefined();
  });
});
