// How answers are compared: one normalisation for every "is this the expected answer?" in the
// playground and the CLI (evaluation checks, `run --correct`, batches), and the number reading
// behind numeric checks. Pure TypeScript: runs in the browser's worker and in Node.
//
// The normalisation follows the usual question-answering practice (SQuAD's: lower case, no
// punctuation, no articles, collapsed spaces) and adds what answers about the corpus need:
// accents folded ("São Tomé" = "Sao Tome") and numbers read as numbers, so that "558,457",
// "558457" and "558457.0" are one answer while "3.5" stays 3.5 (punctuation is removed only
// outside numbers).

/** Thousands separated by commas, thin or no-break spaces, or underscores, with an optional
 * decimal part; a sign only where it cannot be a hyphen inside a word ("COVID-19" is no -19). */
const NUMBER = /(?<![\p{L}\p{N}.])[-+]?(?:\d{1,3}(?:[,_\u00a0\u202f\u2009]\d{3})+|\d+)(?:\.\d+)?(?![\p{N}])/gu;
const TOKEN = /(?<![\p{L}\p{N}])-?\d+(?:\.\d+)?(?![\p{L}\p{N}])|[\p{L}\p{N}]+/gu;
const ARTICLES = new Set(['a', 'an', 'the']);

/** A number's canonical spelling: no separators, no trailing zeros, no "+" ("1,000.50" → "1000.5"). */
function canonicalNumber(text: string): string {
  const value = Number(text.replace(/[,_\u00a0\u202f\u2009]/g, ''));
  return Number.isFinite(value) ? String(value) : text;
}

/** Folds case and accents: "São Tomé" → "sao tome". */
function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The comparable form of an answer: folded, numbers canonical, punctuation and articles gone,
 * single spaces. */
export function normalizeAnswer(answer: string): string {
  const withNumbers = fold(answer).replace(NUMBER, (match) => canonicalNumber(match));
  const tokens = withNumbers.match(TOKEN) ?? [];
  return tokens
    .map((token) => (/^-?\d/.test(token) ? canonicalNumber(token) : token))
    .filter((token) => !ARTICLES.has(token))
    .join(' ');
}

/** True when the two answers are the same after normalisation. */
export function answersMatch(answer: string | null, expected: string): boolean {
  return answer !== null && normalizeAnswer(answer) === normalizeAnswer(expected);
}

const SCALE_WORDS: Record<string, number> = {
  thousand: 1e3,
  million: 1e6,
  billion: 1e9,
  trillion: 1e12,
};

const NUMBER_WITH_SCALE = new RegExp(`${NUMBER.source}(?:\\s*(%|thousand|million|billion|trillion)\\b)?`, 'giu');

export interface NumberInText {
  /** As written, e.g. "1.2 million". */
  text: string;
  value: number;
}

/** Every number in the text, read with its separators and a scale word or percent sign after it
 * ("1.2 million" → 1200000, "12%" → 12). */
export function numbersIn(text: string): NumberInText[] {
  const found: NumberInText[] = [];
  for (const match of fold(text).matchAll(NUMBER_WITH_SCALE)) {
    const digits = match[0].replace(/\s*(%|thousand|million|billion|trillion)$/i, '');
    const base = Number(digits.replace(/[,_\u00a0\u202f\u2009]/g, ''));
    if (!Number.isFinite(base)) continue;
    const scaleWord = match[1]?.toLowerCase();
    const scale = scaleWord && scaleWord !== '%' ? (SCALE_WORDS[scaleWord] ?? 1) : 1;
    found.push({ text: match[0].trim(), value: base * scale });
  }
  return found;
}

export type NumberReading = { ok: true; value: number; text: string } | { ok: false; reason: string };

/** The one number an answer gives: the answer itself when it is a number, else the only number
 * written in it. Several different numbers are ambiguous and refused, with the reason. */
export function readNumber(answer: string): NumberReading {
  const numbers = numbersIn(answer);
  const first = numbers[0];
  if (!first) return { ok: false, reason: 'the answer holds no number' };
  const distinct = [...new Set(numbers.map((n) => n.value))];
  if (distinct.length > 1) {
    return {
      ok: false,
      reason: `the answer holds several numbers (${numbers.map((n) => n.text).join(', ')}), so which one it gives is unclear`,
    };
  }
  return { ok: true, value: first.value, text: first.text };
}
