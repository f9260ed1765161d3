import { describe, expect, it } from 'vitest';
import { formatNumber, placeNameKey } from './corpus.ts';
import { loadNodeCorpus, loadNodeCorpusInput, loadNodeSampleTasks } from './nodeCorpus.ts';
import { buildSampleTasks } from './sampleTasks.ts';

describe('buildSampleTasks over the real packages', () => {
  const tasks = loadNodeSampleTasks();
  const input = loadNodeCorpusInput();
  const docText = new Map(loadNodeCorpus().map((doc) => [doc.id, doc.text]));
  const templateOf = (id: string) => id.replace(/-[^-]+$/, '');

  it('produces 30 to 60 tasks across all templates, with unique ids and questions', () => {
    expect(tasks.length).toBeGreaterThanOrEqual(30);
    expect(tasks.length).toBeLessThanOrEqual(60);
    expect(new Set(tasks.map((task) => task.id)).size).toBe(tasks.length);
    expect(new Set(tasks.map((task) => task.question)).size).toBe(tasks.length);
    expect(new Set(tasks.map((task) => templateOf(task.id)))).toEqual(
      new Set(['capital-population', 'neighbour-capital', 'neighbour-capital-population', 'city-currency', 'city-calling-code']),
    );
  });

  it('puts every answer in the last source document and not in the first', () => {
    for (const task of tasks) {
      expect(task.answer, task.id).not.toBe('');
      const sources = task.sources.map((id) => docText.get(id));
      expect(sources.every((text) => text !== undefined), task.id).toBe(true);
      expect(sources.at(-1), task.id).toContain(task.answer);
      expect(sources[0], task.id).not.toContain(task.answer);
    }
  });

  it('has hop counts consistent with its sources', () => {
    // Per template: the hops, and the kinds of the source documents in look-up order.
    const shapes: Record<string, { hops: number; kinds: RegExp }> = {
      'capital-population': { hops: 2, kinds: /^country city$/ },
      'neighbour-capital': { hops: 2, kinds: /^country( country){2,}$/ },
      'neighbour-capital-population': { hops: 3, kinds: /^country( country){2,} city$/ },
      'city-currency': { hops: 2, kinds: /^city country$/ },
      'city-calling-code': { hops: 2, kinds: /^city country$/ },
    };
    for (const task of tasks) {
      const shape = shapes[templateOf(task.id)];
      expect(shape, task.id).toBeDefined();
      expect(task.hops, task.id).toBe(shape!.hops);
      expect(task.sources.map((id) => id.split('-')[0]).join(' '), task.id).toMatch(shape!.kinds);
      expect(new Set(task.sources).size, task.id).toBe(task.sources.length);
    }
  });

  it('answers capital-population tasks from the raw data', () => {
    const byName = new Map(input.countries.map((country) => [country.name.common, country]));
    const checked = tasks.filter((task) => templateOf(task.id) === 'capital-population');
    expect(checked.length).toBeGreaterThan(0);
    for (const task of checked) {
      const countryName = /capital of (.+)\?$/.exec(task.question)?.[1] ?? '';
      const country = byName.get(countryName);
      const capital = country?.capital[0] ?? '';
      const cities = input.cities.filter(
        (city) => city.country === country?.cca2 && placeNameKey(city.name) === placeNameKey(capital) && city.population >= 100_000,
      );
      expect(cities, task.id).toHaveLength(1);
      expect(task.answer).toBe(formatNumber(cities[0]!.population));
    }
  });

  it('answers neighbour-capital tasks from the raw data', () => {
    const byName = new Map(input.countries.map((country) => [country.name.common, country]));
    const byCode = new Map(input.countries.map((country) => [country.cca3, country]));
    const checked = tasks.filter((task) => templateOf(task.id) === 'neighbour-capital');
    expect(checked.length).toBeGreaterThan(0);
    for (const task of checked) {
      const origin = byName.get(/borders (.+)\?$/.exec(task.question)?.[1] ?? '');
      const neighbours = (origin?.borders ?? []).map((code) => byCode.get(code)!);
      const largest = neighbours.reduce((best, next) => (next.area > best.area ? next : best));
      expect(task.answer, task.id).toBe(largest.capital[0]);
    }
  });

  it('is deterministic, and the seed changes the selection', () => {
    expect(buildSampleTasks(input)).toEqual(tasks);
    const reseeded = buildSampleTasks(input, { seed: 'another' });
    expect(reseeded.map((task) => task.id)).not.toEqual(tasks.map((task) => task.id));
    expect(buildSampleTasks(input, { perTemplate: 2 })).toHaveLength(10);
  });
});
