import {
  callingCodesOf,
  cityDocId,
  corpusOfWorld,
  countryDocId,
  formatNumber,
  placeNameKey,
  resolveWorld,
  type City,
  type CorpusInput,
  type CorpusOptions,
  type World,
  type WorldCountry,
} from './corpus.ts';

// Deterministic multi-hop questions over the corpus. Each answer is written, verbatim, in the
// last of its source documents, and not in the first one: the question needs every hop.

export interface SampleTask {
  id: string;
  question: string;
  answer: string;
  /** Sequential look-ups needed: the first source names the next entity, and so on. */
  hops: number;
  /** Document ids in the order the look-ups reach them; the last one holds the answer. */
  sources: string[];
}

export interface SampleTaskOptions {
  /** At most this many tasks per question template. */
  perTemplate?: number;
  /** Changes which candidates are picked, deterministically. */
  seed?: string;
  corpus?: CorpusOptions;
}

export const DEFAULT_TASKS_PER_TEMPLATE = 10;
const DEFAULT_SEED = 'orchestra-playground';

interface Candidate {
  key: string;
  question: string;
  answer: string;
  hops: number;
  sources: string[];
}

interface Template {
  name: string;
  candidates(world: World, lookup: WorldLookup): Candidate[];
}

interface WorldLookup {
  docText: Map<string, string>;
  /** City-name keys found on more than one corpus city. */
  repeatedCityKeys: Set<string>;
  /** Country names as space-padded words, to spot a city named like part of a country. */
  countryWords: string[];
}

export function buildSampleTasks(input: CorpusInput, options: SampleTaskOptions = {}): SampleTask[] {
  const perTemplate = options.perTemplate ?? DEFAULT_TASKS_PER_TEMPLATE;
  const seed = options.seed ?? DEFAULT_SEED;
  const world = resolveWorld(input, options.corpus);
  const lookup = lookupOf(world);

  return TEMPLATES.flatMap((template) => {
    const usable = template.candidates(world, lookup).filter((candidate) => needsEveryHop(candidate, lookup));
    const picked: SampleTask[] = [];
    const usedAnswers = new Set<string>();
    for (const candidate of deterministicShuffle(usable, `${seed}:${template.name}`)) {
      if (picked.length >= perTemplate) break;
      if (usedAnswers.has(candidate.answer)) continue;
      usedAnswers.add(candidate.answer);
      const { key, ...task } = candidate;
      picked.push({ id: `${template.name}-${key}`, ...task });
    }
    return picked;
  });
}

function lookupOf(world: World): WorldLookup {
  const docText = new Map(corpusOfWorld(world).map((doc) => [doc.id, doc.text]));
  const seen = new Set<string>();
  const repeatedCityKeys = new Set<string>();
  for (const city of world.cities) {
    const key = placeNameKey(city.name);
    if (seen.has(key)) repeatedCityKeys.add(key);
    seen.add(key);
  }
  const countryWords = world.countries.map((country) => nameWords(country.name.common));
  return { docText, repeatedCityKeys, countryWords };
}

/** " el salvador " for "El Salvador": lower case, no accents, words padded with spaces. */
function nameWords(name: string): string {
  const words = name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return ` ${words.join(' ')} `;
}

/** The answer sits in the last source and not in the first, so no single look-up answers it. */
function needsEveryHop(candidate: Candidate, lookup: WorldLookup): boolean {
  const first = lookup.docText.get(candidate.sources[0] ?? '');
  const last = lookup.docText.get(candidate.sources.at(-1) ?? '');
  return first !== undefined && last !== undefined && last.includes(candidate.answer) && !first.includes(candidate.answer);
}

const TEMPLATES: Template[] = [
  {
    name: 'capital-population',
    candidates: (world) =>
      world.countries.flatMap((country) => {
        const capital = world.capitalCity.get(country.cca3);
        if (!capital) return [];
        return [
          {
            key: country.cca3.toLowerCase(),
            question: `What is the population of the capital of ${country.name.common}?`,
            answer: formatNumber(capital.population),
            hops: 2,
            sources: [countryDocId(country), cityDocId(capital)],
          },
        ];
      }),
  },
  {
    name: 'neighbour-capital',
    candidates: (world) =>
      world.countries.flatMap((country) => {
        const chain = largestNeighbourChain(country, world);
        const capital = chain?.largest.capital[0];
        if (!chain || capital === undefined) return [];
        return [
          {
            key: country.cca3.toLowerCase(),
            question: `What is the capital of the largest country by area that borders ${country.name.common}?`,
            answer: capital,
            hops: 2,
            sources: chain.sources,
          },
        ];
      }),
  },
  {
    name: 'neighbour-capital-population',
    candidates: (world) =>
      world.countries.flatMap((country) => {
        const chain = largestNeighbourChain(country, world);
        const capital = chain && world.capitalCity.get(chain.largest.cca3);
        if (!chain || !capital) return [];
        return [
          {
            key: country.cca3.toLowerCase(),
            question:
              `What is the population of the capital of the largest country by area that borders ` +
              `${country.name.common}?`,
            answer: formatNumber(capital.population),
            hops: 3,
            sources: [...chain.sources, cityDocId(capital)],
          },
        ];
      }),
  },
  {
    name: 'city-currency',
    candidates: (world, lookup) =>
      distinctCities(world, lookup).flatMap(({ city, country }) => {
        const currencies = Object.values(country.currencies);
        const [currency] = currencies;
        if (!currency || currencies.length > 1) return [];
        return [
          {
            key: String(city.cityId),
            question: `Which currency is used in the country where the city of ${city.name} is located?`,
            answer: currency.name,
            hops: 2,
            sources: [cityDocId(city), countryDocId(country)],
          },
        ];
      }),
  },
  {
    name: 'city-calling-code',
    candidates: (world, lookup) =>
      distinctCities(world, lookup).flatMap(({ city, country }) => {
        const codes = callingCodesOf(country);
        const [code] = codes;
        if (code === undefined || codes.length > 1) return [];
        return [
          {
            key: String(city.cityId),
            question: `What is the international calling code of the country where the city of ${city.name} is located?`,
            answer: code,
            hops: 2,
            sources: [cityDocId(city), countryDocId(country)],
          },
        ];
      }),
  },
];

/**
 * The neighbours of `country` and the one with the largest area, when that one is clearly the
 * largest and has a single capital. Sources: the country, the other neighbours, the largest last.
 */
function largestNeighbourChain(
  country: WorldCountry,
  world: World,
): { largest: WorldCountry; sources: string[] } | null {
  const neighbours = country.borders.map((code) => world.countryByCca3.get(code));
  if (neighbours.length < 2 || neighbours.some((neighbour) => !neighbour || neighbour.area <= 0)) return null;
  const byArea = (neighbours as WorldCountry[]).toSorted((a, b) => b.area - a.area);
  const [largest, runnerUp] = byArea;
  if (!largest || !runnerUp || largest.area <= runnerUp.area || largest.capital.length !== 1) return null;
  const others = byArea.slice(1).toSorted((a, b) => (a.cca3 < b.cca3 ? -1 : 1));
  return { largest, sources: [countryDocId(country), ...others.map(countryDocId), countryDocId(largest)] };
}

/**
 * Cities that a question can name without ambiguity: a unique name that is no part of a
 * country's name ("Salvador", "El Salvador"), a real city rather than a section of one, and
 * neither a capital nor otherwise named in its country's document (else one look-up would do).
 */
function distinctCities(world: World, lookup: WorldLookup): { city: City; country: WorldCountry }[] {
  const capitals = new Set(world.capitalCity.values());
  return world.cities.flatMap((city) => {
    const country = world.countryByCca2.get(city.country);
    if (!country || city.altName || city.featureCode === 'PPLX' || capitals.has(city)) return [];
    if (lookup.repeatedCityKeys.has(placeNameKey(city.name))) return [];
    const words = nameWords(city.name);
    if (lookup.countryWords.some((countryWords) => countryWords.includes(words))) return [];
    if (lookup.docText.get(countryDocId(country))?.includes(city.name)) return [];
    return [{ city, country }];
  });
}

/** Orders items by a seeded FNV-1a hash of their key: stable, spread out, no Math.random. */
function deterministicShuffle<T extends { key: string }>(items: readonly T[], seed: string): T[] {
  return items
    .map((item) => ({ item, rank: fnv1a(`${seed}:${item.key}`) }))
    .sort((a, b) => a.rank - b.rank || (a.item.key < b.item.key ? -1 : 1))
    .map(({ item }) => item);
}

function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}
