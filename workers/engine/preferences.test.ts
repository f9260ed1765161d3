import { describe, expect, it } from 'vitest';
import {
  objectivePercents,
  PREFERENCE_PRESETS,
  preferenceInstruction,
  type PreferenceVector,
} from './preferences.ts';
import { preferenceSchema, validatePreference } from './preferenceSchema.ts';

const nothing: PreferenceVector = { outcome: 0, cost: 0, latency: 0, tools: {} };

describe('PREFERENCE_PRESETS', () => {
  it('leans each preset its own way and passes validation', () => {
    const { cheapest, balanced, fastest } = PREFERENCE_PRESETS;
    const best = PREFERENCE_PRESETS['best-answer'];
    expect(cheapest.cost).toBeGreaterThan(Math.max(cheapest.outcome, cheapest.latency));
    expect(fastest.latency).toBeGreaterThan(Math.max(fastest.outcome, fastest.cost));
    expect(best).toEqual({ outcome: 1, cost: 0, latency: 0, tools: {} });
    expect(balanced.outcome).toBeGreaterThan(0);
    expect(balanced.cost).toBeGreaterThan(0);
    expect(balanced.latency).toBeGreaterThan(0);
    for (const preset of Object.values(PREFERENCE_PRESETS)) expect(validatePreference(preset)).toEqual({ ok: true, value: preset });
  });
});

describe('preferenceSchema / validatePreference', () => {
  it('fills in missing tools', () => {
    expect(preferenceSchema.parse({ outcome: 1, cost: 0.5, latency: 0 })).toEqual({ outcome: 1, cost: 0.5, latency: 0, tools: {} });
  });

  it('rejects weights out of range, with the field named', () => {
    const tooHigh = validatePreference({ outcome: 1.5, cost: 0, latency: 0 });
    expect(tooHigh.ok).toBe(false);
    if (!tooHigh.ok) expect(tooHigh.error).toMatch(/^outcome: /);
    const badTool = validatePreference({ outcome: 1, cost: 0, latency: 0, tools: { 'answer-1': -2 } });
    expect(badTool.ok).toBe(false);
    if (!badTool.ok) expect(badTool.error).toContain('tools.answer-1');
    expect(validatePreference({ outcome: 1, cost: -0.1, latency: 0 }).ok).toBe(false);
    expect(validatePreference('balanced').ok).toBe(false);
    expect(validatePreference({ outcome: 1, cost: 0, latency: 0, speed: 1 }).ok).toBe(false);
  });
});

describe('objectivePercents', () => {
  it('splits the three objectives among themselves in whole percents summing to 100, leaving tool weights out', () => {
    // The case: with tool weights counted in, the sliders said 10/21/34% while the
    // instruction said 16/31/53%. Both now use this split.
    const vector = { outcome: 0.15, cost: 0.3, latency: 0.5, tools: { 'search-1': 1, 'answer-2': -0.5 } };
    expect(objectivePercents(vector)).toEqual({ outcome: 16, cost: 31, latency: 53 });
    expect(preferenceInstruction(vector)).toContain('Weigh correctness 16%, low cost 31%, low latency 53%.');
    expect(objectivePercents({ ...nothing, outcome: 1, cost: 1, latency: 1 })).toEqual({ outcome: 34, cost: 33, latency: 33 });
  });

  it('is all zeros when no objective is weighted', () => {
    expect(objectivePercents({ ...nothing, tools: { 'search-1': 1 } })).toEqual({ outcome: 0, cost: 0, latency: 0 });
  });
});

describe('preferenceInstruction', () => {
  it('is null when nothing is weighted', () => {
    expect(preferenceInstruction(nothing)).toBeNull();
    expect(preferenceInstruction({ ...nothing, tools: { 'search-1': 0 } })).toBeNull();
  });

  it('words each preset the same way every time', () => {
    expect(Object.fromEntries(Object.entries(PREFERENCE_PRESETS).map(([name, p]) => [name, preferenceInstruction(p)]))).toMatchInlineSnapshot(`
      {
        "balanced": "User preference: Weigh correctness 50%, low cost 25%, low latency 25%.",
        "best-answer": "User preference: Weigh correctness 100%.",
        "cheapest": "User preference: Weigh correctness 30%, low cost 60%, low latency 10%.",
        "fastest": "User preference: Weigh correctness 30%, low cost 10%, low latency 60%.",
      }
    `);
  });

  it('lists preferred and avoided tools, strongest first, then by name', () => {
    const p: PreferenceVector = {
      outcome: 0.5,
      cost: 0.3,
      latency: 0.2,
      tools: { 'reasoner-3': 0.5, 'search-2': 1, 'answer-1': -0.4, 'answer-math-2': 0, 'answer-4': 0.5 },
    };
    expect(preferenceInstruction(p)).toBe(
      "User preference: Weigh correctness 50%, low cost 30%, low latency 20%. Prefer search-2, answer-4 and reasoner-3; avoid answer-1.",
    );
  });

  it('speaks of tools alone when only tools are weighted', () => {
    expect(preferenceInstruction({ ...nothing, tools: { 'answer-1': -1 } })).toBe(
      "User preference: Avoid answer-1.",
    );
  });

  it('rounds shares to whole percents that add up to 100', () => {
    // Thirds: 33.33… each; the leftover 1% goes to the first → 34, 33, 33.
    expect(preferenceInstruction({ outcome: 1, cost: 1, latency: 1, tools: {} })).toContain('correctness 34%, low cost 33%, low latency 33%.');
    // 0.7 / 0.2 / 0.1 in floating point still reads 70 / 20 / 10.
    expect(preferenceInstruction({ outcome: 0.7, cost: 0.2, latency: 0.1, tools: {} })).toContain('correctness 70%, low cost 20%, low latency 10%.');
    // A weight too small to show is left out rather than printed as 0%: 0.001 / 1.001 ≈ 0.1%.
    expect(preferenceInstruction({ outcome: 1, cost: 0.001, latency: 0, tools: {} })).toContain('Weigh correctness 100%.');
  });
});
