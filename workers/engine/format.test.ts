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

describe('formatUsd', () => {
  it('prints dollars for people', () => {
    expect(formatUsd(null)).toBe('unknown');
    expect(formatUsd(Number.NaN)).toBe('unknown');
    expect(formatUsd(0)).toBe('$0');
    expect(formatUsd(0.0000001)).toBe('<$0.000001');
    expect(formatUsd(0.00001)).toBe('$0.00001');
    expect(formatUsd(0.000433)).toBe('$0.000433');
    expect(formatUsd(0.0043349)).toBe('$0.00433');
    expect(formatUsd(0.0123)).toBe('$0.0123');
    expect(formatUsd(0.012345)).toBe('$0.0123');
    expect(formatUsd(1.5)).toBe('$1.50');
    expect(formatUsd(1.005)).toBe('$1.01');
    expect(formatUsd(1234.5)).toBe('$1234.50');
    expect(formatUsd(-0.02)).toBe('-$0.0200');
  });

  it('prints prices per million tokens as the menu and the tables do', () => {
    expect(formatPerMillion(undefined)).toBe('unknown');
    expect(formatPerMillion(1.25)).toBe('$1.25');
    expect(formatPerMillion(10)).toBe('$10');
    expect(formatPerMillion(0.0000004)).toBe('$0');
    expect(formatPerMillion(0.1234567)).toBe('$0.123457');
  });
});

describe('counts, sizes and shares', () => {
  it('groups thousands in counts', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0.5)).toBe('0.5');
  });

  it('writes decimal sizes for downloads and binary ones for device limits', () => {
    expect(formatBytes(400)).toBe('0 kB');
    expect(formatBytes(850_400_000)).toBe('850 MB');
    expect(formatBytes(1_234_000_000)).toBe('1.2 GB');
    expect(formatBinaryBytes(1024 ** 3)).toBe('1 GiB');
    expect(formatBinaryBytes(1.5 * 1024 ** 3)).toBe('1.5 GiB');
    expect(formatBinaryBytes(128 * 1024 ** 2)).toBe('128 MiB');
    expect(formatBinaryBytes(2048)).toBe('2 KiB');
    expect(formatBinaryBytes(12)).toBe('12 bytes');
  });

  it('writes a share as a percentage with one decimal', () => {
    expect(formatPercent(0.4567)).toBe('45.7%');
    expect(formatPercent(1)).toBe('100.0%');
    expect(formatPercent(0)).toBe('0.0%');
  });
});

describe('durations', () => {
  it('rounds before choosing the unit, so no figure reads 60 of anything', () => {
    expect(formatMs(undefined)).toBe('—');
    expect(formatMs(null)).toBe('—');
    expect(formatMs(850.4)).toBe('850 ms');
    expect(formatMs(999.7)).toBe('1.0 s');
    expect(formatMs(1234)).toBe('1.2 s');
    expect(formatMs(59_960)).toBe('1 min 0 s');
    expect(formatMs(119_600)).toBe('2 min 0 s');
    expect(formatMs(125_000)).toBe('2 min 5 s');
  });

  it('writes limits in seconds with at most two decimals, and ETAs in minutes and hours', () => {
    expect(formatSeconds(1500)).toBe('1.5 s');
    expect(formatSeconds(60_000)).toBe('60 s');
    expect(formatSeconds(250)).toBe('0.25 s');
    expect(formatSeconds(1_234_567)).toBe('1234.57 s');
    expect(formatDuration(45_000)).toBe('45 s');
    expect(formatDuration(200_000)).toBe('3 min 20 s');
    expect(formatDuration(3_900_000)).toBe('1 h 05 min');
  });
});
