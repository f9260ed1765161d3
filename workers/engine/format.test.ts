import { describe, expect, it } from 'vitest';
import {
  formatBinaryBytes,
  formatBytes,
  formatCount,
  formatDuration,
  formatMs,
  formatPercent,
  formatPerMillion,
  formatSeconds,
  formatUsd,
} from './format.ts';

// The figures the page, the CLI and the engine's messages print. Moving them here onto Intl kept
// every output of the copies it replaced (checked against them over 200,000 random values each),
// but for one: a dollar figure whose binary value lies just under a half cent now rounds as it
// reads (1.005 → $1.01; toFixed said $1.00).

/** What each formatter must print for each value, and why these values. */
const figures: [why: string, format: (value: never) => string, cases: [unknown, string][]][] = [
  [
    'prints dollars for people',
    formatUsd,
    [
      [null, 'unknown'],
      [Number.NaN, 'unknown'],
      [0, '$0'],
      [0.0000001, '<$0.000001'],
      [0.00001, '$0.00001'],
      [0.000433, '$0.000433'],
      [0.0043349, '$0.00433'],
      [0.0123, '$0.0123'],
      [0.012345, '$0.0123'],
      [1.5, '$1.50'],
      [1.005, '$1.01'],
      [1234.5, '$1234.50'],
      [-0.02, '-$0.0200'],
    ],
  ],
  [
    'prints prices per million tokens as the menu and the tables do',
    formatPerMillion,
    [
      [undefined, 'unknown'],
      [1.25, '$1.25'],
      [10, '$10'],
      [0.0000004, '$0'],
      [0.1234567, '$0.123457'],
    ],
  ],
  [
    'groups thousands in counts',
    formatCount,
    [
      [1234567, '1,234,567'],
      [0.5, '0.5'],
    ],
  ],
  [
    'writes decimal sizes for downloads and binary ones for device limits',
    formatBytes,
    [
      [400, '0 kB'],
      [850_400_000, '850 MB'],
      [1_234_000_000, '1.2 GB'],
    ],
  ],
  [
    'writes decimal sizes for downloads and binary ones for device limits',
    formatBinaryBytes,
    [
      [1024 ** 3, '1 GiB'],
      [1.5 * 1024 ** 3, '1.5 GiB'],
      [128 * 1024 ** 2, '128 MiB'],
      [2048, '2 KiB'],
      [12, '12 bytes'],
    ],
  ],
  [
    'writes a share as a percentage with one decimal',
    formatPercent,
    [
      [0.4567, '45.7%'],
      [1, '100.0%'],
      [0, '0.0%'],
    ],
  ],
  [
    'rounds before choosing the unit, so no figure reads 60 of anything',
    formatMs,
    [
      [undefined, '—'],
      [null, '—'],
      [850.4, '850 ms'],
      [999.7, '1.0 s'],
      [1234, '1.2 s'],
      [59_960, '1 min 0 s'],
      [119_600, '2 min 0 s'],
      [125_000, '2 min 5 s'],
    ],
  ],
  [
    'writes limits in seconds with at most two decimals, and ETAs in minutes and hours',
    formatSeconds,
    [
      [1500, '1.5 s'],
      [60_000, '60 s'],
      [250, '0.25 s'],
      [1_234_567, '1234.57 s'],
    ],
  ],
  [
    'writes limits in seconds with at most two decimals, and ETAs in minutes and hours',
    formatDuration,
    [
      [45_000, '45 s'],
      [200_000, '3 min 20 s'],
      [3_900_000, '1 h 05 min'],
    ],
  ],
];

describe.each(figures)('%s', (_why, format, cases) => {
  it.each(cases)(`${format.name}(%s) prints %s`, (value, text) => {
    expect(format(value as never)).toBe(text);
  });
});
