// The scripted demo's reading of the local corpus: which sample question a task is (the five
// templates of tools/search/sampleTasks.ts), and what the documents gathered so far answer or
// still lack. Every fact comes from the documents the real search returned; nothing is known in
// advance. Documents are untrusted text: they are only matched, never evaluated.

export type DemoQuestion =
  | { kind: 'capital-population'; country: string }
  | { kind: 'neighbour-capital'; country: string; population: boolean }
  | { kind: 'city-fact'; city: string; fact: 'currency' | 'calling-code' };

const QUESTION_FORMS: Array<{ pattern: RegExp; read: (name: string) => DemoQuestion }> = [
  {
    pattern: /^What is the population of the capital of the largest country by area that borders (.+)\?$/,
    read: (country) => ({ kind: 'neighbour-capital', country, population: true }),
  },
  {
    pattern: /^What is the capital of the largest country by area that borders (.+)\?$/,
    read: (country) => ({ kind: 'neighbour-capital', country, population: false }),
  },
  { pattern: /^What is the population of the capital of (.+)\?$/, read: (country) => ({ kind: 'capital-population', country }) },
  {
    pattern: /^Which currency is used in the country where the city of (.+) is located\?$/,
    read: (city) => ({ kind: 'city-fact', city, fact: 'currency' }),
  },
  {
    pattern: /^What is the international calling code of the country where the city of (.+) is located\?$/,
    read: (city) => ({ kind: 'city-fact', city, fact: 'calling-code' }),
  },
];

/** The sample question `task` asks, or null for any other task. */
export function readQuestion(task: string): DemoQuestion | null {
  const text = task.trim();
  for (const form of QUESTION_FORMS) {
    const name = form.pattern.exec(text)?.[1]?.trim();
    if (name) return form.read(name);
  }
  return null;
}

/** What the documents give: the next thing to search for, or the answer with how it was found. */
export type Reading =
  | { kind: 'search'; query: string; why: string }
  | { kind: 'answer'; answer: string; steps: string[]; check: CodeCheck }
  | { kind: 'not-found'; why: string };

/** What a reasoner's code recomputes from the figures read: the pick of the largest area, or the
 * figure itself parsed. */
export type CodeCheck =
  | { kind: 'largest'; areas: Array<{ name: string; area: number }>; capitals: Record<string, string> }
  | { kind: 'figure'; label: string; value: string };

/** The longest query the script writes: a few names at a time, as a person would. */
const NAMES_PER_QUERY = 3;

export function readDocuments(question: DemoQuestion, documents: readonly string[]): Reading {
  switch (question.kind) {
    case 'capital-population':
      return capitalPopulation(question.country, documents, []);
    case 'neighbour-capital':
      return neighbourCapital(question.country, question.population, documents);
    case 'city-fact':
      return cityFact(question.city, question.fact, documents);
  }
}

function capitalPopulation(country: string, documents: readonly string[], steps: string[]): Reading {
  const countryDoc = findCountry(documents, country);
  if (!countryDoc) return { kind: 'search', query: `${country} capital`, why: `the document on ${country}, which names its capital` };
  const capital = capitalOf(countryDoc);
  if (!capital) return { kind: 'not-found', why: `the document on ${country} names no single capital` };
  const cityDoc = findCapitalCity(documents, capital, country);
  if (!cityDoc) {
    return { kind: 'search', query: `${capital} population`, why: `the document on ${capital}, the capital of ${country}, which gives its population` };
  }
  const population = populationOf(cityDoc);
  if (!population) return { kind: 'not-found', why: `the document on ${capital} gives no population` };
  return {
    kind: 'answer',
    answer: population,
    steps: [...steps, `The capital of ${country} is ${capital}.`, `The population of ${capital} is ${population}.`],
    check: { kind: 'figure', label: `population of ${capital}`, value: population },
  };
}

function neighbourCapital(country: string, population: boolean, documents: readonly string[]): Reading {
  const countryDoc = findCountry(documents, country);
  if (!countryDoc) return { kind: 'search', query: `${country} borders`, why: `the document on ${country}, which lists its neighbours` };
  const neighbours = bordersOf(countryDoc, country, documents);
  if (!neighbours || neighbours.length === 0) return { kind: 'not-found', why: `the document on ${country} lists no neighbours` };
  const missing = neighbours.filter((name) => !findCountry(documents, name));
  if (missing.length > 0) {
    const batch = missing.slice(0, NAMES_PER_QUERY);
    return { kind: 'search', query: `${batch.join(' ')} area`, why: `the areas of ${country}'s neighbours ${batch.join(', ')}` };
  }
  const areas = neighbours.map((name) => ({ name, area: areaOf(findCountry(documents, name)!) }));
  if (areas.some((entry) => entry.area === null)) return { kind: 'not-found', why: `a neighbour's document gives no area` };
  const known = areas as Array<{ name: string; area: number }>;
  const largest = known.reduce((best, entry) => (entry.area > best.area ? entry : best));
  const capitals = Object.fromEntries(known.flatMap(({ name }) => {
    const capital = capitalOf(findCountry(documents, name)!);
    return capital ? [[name, capital]] : [];
  }));
  const capital = capitals[largest.name];
  if (!capital) return { kind: 'not-found', why: `the document on ${largest.name} names no single capital` };
  const steps = [
    `${country} borders ${neighbours.join(', ')}.`,
    `The largest of them by area is ${largest.name} (${largest.area.toLocaleString('en-US')} km²).`,
  ];
  if (!population) {
    return {
      kind: 'answer',
      answer: capital,
      steps: [...steps, `The capital of ${largest.name} is ${capital}.`],
      check: { kind: 'largest', areas: known, capitals },
    };
  }
  return capitalPopulation(largest.name, documents, steps);
}

function cityFact(city: string, fact: 'currency' | 'calling-code', documents: readonly string[]): Reading {
  const cityDoc = documents.find((text) => text.startsWith(`${city} is a city in `));
  if (!cityDoc) return { kind: 'search', query: `${city} city`, why: `the document on ${city}, which names its country` };
  const country = countryOfCity(cityDoc, city);
  if (!country) return { kind: 'not-found', why: `the document on ${city} names no country` };
  const countryDoc = findCountry(documents, country);
  const wanted = fact === 'currency' ? 'currency' : 'international calling code';
  if (!countryDoc) return { kind: 'search', query: `${country} ${fact === 'currency' ? 'currency' : 'calling code'}`, why: `the document on ${country}, which gives its ${wanted}` };
  const value = fact === 'currency' ? currencyOf(countryDoc) : callingCodeOf(countryDoc);
  if (!value) return { kind: 'not-found', why: `the document on ${country} gives no single ${wanted}` };
  return {
    kind: 'answer',
    answer: value,
    steps: [`${city} is a city in ${country}.`, `The ${wanted} of ${country} is ${value}.`],
    check: { kind: 'figure', label: `${wanted} of ${country}`, value },
  };
}

/** The corpus's document on a country begins "Name is …" or "Name (officially …) is …". */
function findCountry(documents: readonly string[], name: string): string | undefined {
  return documents.find(
    (text) => (text.startsWith(`${name} is an independent country`) || text.startsWith(`${name} is a territory`) || text.startsWith(`${name} (officially `)) && text.includes(`Its ISO country codes are`),
  );
}

/** A capital's document: the one saying it is the capital of the country, else a city of that name there. */
function findCapitalCity(documents: readonly string[], capital: string, country: string): string | undefined {
  return (
    documents.find((text) => text.startsWith(`${capital} is a city in `) && text.includes(`${capital} is the capital of ${country}.`)) ??
    documents.find((text) => text.startsWith(`${capital} is a city in ${country}`))
  );
}

/** The sentence after `lead`, up to the start of the next one (which begins with a capital letter). */
function sentenceAfter(text: string, lead: string): string | null {
  const start = text.indexOf(lead);
  if (start === -1) return null;
  const rest = text.slice(start + lead.length);
  const end = rest.search(/\. (?=\p{Lu})/u);
  return end === -1 ? rest.replace(/\.$/, '') : rest.slice(0, end);
}

function capitalOf(countryDoc: string): string | null {
  const capital = sentenceAfter(countryDoc, 'Its capital is ');
  // "Washington D.C." keeps its last full stop, which the sentence's end swallowed.
  if (capital === null) return null;
  return /\.\p{Lu}$/u.test(capital) ? `${capital}.` : capital;
}

function bordersOf(countryDoc: string, country: string, documents: readonly string[]): string[] | null {
  const list = sentenceAfter(countryDoc, `${country} borders `)?.replace(/^\d+ countr(?:y|ies): /, '');
  if (!list) return null;
  // "A, B and C": the last " and " joins the last two names, unless it belongs to a name
  // ("Bosnia and Herzegovina"), which the documents at hand may tell.
  const items = list.split(', ');
  const last = items.pop() ?? '';
  const splits = [...last.matchAll(/ and /g)].map((match) => [last.slice(0, match.index), last.slice(match.index + 5)] as const);
  const pair = splits.find(([first, second]) => findCountry(documents, first) && findCountry(documents, second)) ?? splits.at(-1);
  return [...items, ...(pair ? pair : [last])].map((name) => name.trim()).filter(Boolean);
}

function areaOf(countryDoc: string): number | null {
  const digits = /Its area is ([\d,]+(?:\.\d+)?) km²/.exec(countryDoc)?.[1];
  return digits ? Number(digits.replaceAll(',', '')) : null;
}

function populationOf(cityDoc: string): string | null {
  return /Its population is (\d[\d,]*)\./.exec(cityDoc)?.[1] ?? null;
}

function countryOfCity(cityDoc: string, city: string): string | null {
  const where = sentenceAfter(cityDoc, `${city} is a city in `);
  // "Finland (Northern Europe)": the subregion follows in brackets.
  return where?.replace(/ \([^()]*\)$/, '').trim() || null;
}

function currencyOf(countryDoc: string): string | null {
  return /Its currency is the (.+?) \([A-Z]{3}[,)]/.exec(countryDoc)?.[1] ?? null;
}

function callingCodeOf(countryDoc: string): string | null {
  return /Its international calling code is (\+\d+)\./.exec(countryDoc)?.[1] ?? null;
}

/** The documents in a prompt: each corpus document is one line, `Doc N: text` (the HLE layout adds " ..."). */
export function documentsInPrompt(prompt: string): string[] {
  return prompt.split('\n').flatMap((line) => {
    const match = /^Doc \d+: (.*)$/.exec(line);
    return match ? [match[1]!.replace(/ \.\.\.$/, '')] : [];
  });
}
