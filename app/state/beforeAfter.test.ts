import { describe, expect, it } from 'vitest';
import { PREFERENCE_PRESETS } from '../../workers/engine/preferences.ts';
import { preferenceName, preferenceSentence } from './beforeAfter.ts';

describe('the before/after strip', () => {
  it('names a preset preference, and spells out any other', () => {
    expect(preferenceName(PREFERENCE_PRESETS.cheapest)).toBe('Cheapest');
    expect(preferenceName({ outcome: 0.4, cost: 0.4, latency: 0.2, tools: {} })).toBe('right 0.4 · cost 0.4 · time 0.2');
    expect(preferenceName(null)).toBe('no preference');
  });
  it('picks the sentence of reasoning that names what was weighed', () => {
    expect(preferenceSentence('I need the country first.\nI search with search-1, the cheapest. Then I answer.')).toBe('I search with search-1, the cheapest.');
    expect(preferenceSentence('Nothing here. Or here')).toBeNull();
  });
});
