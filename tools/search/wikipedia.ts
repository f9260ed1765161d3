// Wikipedia through its public MediaWiki Action API: `list=search` finds the pages, then
// `prop=extracts&explaintext` fetches each top page's plain text. `origin=*` makes the requests
// anonymous CORS requests, so a page (or a worker) can call the API directly. Failures are
// thrown in plain words, never retried here: the orchestrator sees them as the search's result.

import { readTextUpTo } from '../../workers/engine/readTextUpTo.ts';
import type { RetrievedDocument, Retriever } from '../../workers/engine/ports.ts';
import { DEFAULT_SEARCH_LIMIT } from './retriever.ts';

export interface WikipediaRetrieverOptions {
  /** The API endpoint, e.g. https://en.wikipedia.org/w/api.php. */
  baseUrl: string;
  fetch?: typeof fetch;
  /** Per request; 15 s unless given. */
  timeoutMs?: number;
  /** Each page's text is cut to this many characters; 8,000 unless given. */
  maxPageChars?: number;
  /** Whether the host is online; the browser's navigator.onLine unless given. */
  isOnline?: () => boolean;
}

export const DEFAULT_WIKIPEDIA_TIMEOUT_MS = 15_000;
export const DEFAULT_WIKIPEDIA_PAGE_CHARS = 8_000;
/** Bytes read of one API answer: the plain text of the longest articles is about 1 MB, and only the
 * first 8,000 characters are kept, so a larger answer is not an article (docs/security.md). */
export const MAX_WIKIPEDIA_ANSWER_BYTES = 4 * 1024 * 1024;
/** Characters kept of a title: MediaWiki allows 255 bytes. */
const MAX_TITLE_CHARS = 300;

interface SearchHit {
  pageid: number;
  title: string;
}

export function createWikipediaRetriever(options: WikipediaRetrieverOptions): Retriever {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const timeoutMs = options.timeoutMs ?? DEFAULT_WIKIPEDIA_TIMEOUT_MS;
  const maxPageChars = options.maxPageChars ?? DEFAULT_WIKIPEDIA_PAGE_CHARS;
  const isOnline = options.isOnline ?? (() => globalThis.navigator?.onLine !== false);
  const host = hostOf(options.baseUrl);

  const call = async (what: string, params: Record<string, string>, signal: AbortSignal | undefined): Promise<unknown> => {
    const url = new URL(options.baseUrl);
    for (const [name, value] of Object.entries({ ...params, format: 'json', formatversion: '2', origin: '*' })) {
      url.searchParams.set(name, value);
    }
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const onAbort = () => timeout.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      let response: Response;
      try {
        response = await fetchImpl(url, { signal: timeout.signal, headers: { accept: 'application/json' } });
      } catch (error) {
        signal?.throwIfAborted();
        if (timeout.signal.aborted) {
          throw new Error(`Wikipedia (${host}) did not answer the ${what} within ${seconds(timeoutMs)}.`, { cause: error });
        }
        throw new Error(
          `Wikipedia (${host}) could not be reached for the ${what}: the network failed, or the server does not allow requests from this page (CORS).`,
          { cause: error },
        );
      }
      let read: { text: string; truncated: boolean };
      try {
        read = await readTextUpTo(response.body, MAX_WIKIPEDIA_ANSWER_BYTES);
      } catch (error) {
        signal?.throwIfAborted();
        if (timeout.signal.aborted) {
          throw new Error(`Wikipedia (${host}) did not finish its ${what} answer within ${seconds(timeoutMs)}.`, { cause: error });
        }
        throw new Error(`Wikipedia (${host}) broke off its ${what} answer.`, { cause: error });
      }
      if (read.truncated) {
        throw new Error(
          `Wikipedia (${host}) sent more than ${MAX_WIKIPEDIA_ANSWER_BYTES / (1024 * 1024)} MiB for the ${what}, more than any article: it was not read further.`,
        );
      }
      const { text } = read;
      if (!response.ok) {
        throw new Error(`Wikipedia (${host}) answered the ${what} with HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}. Try again later.`);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        throw new Error(`Wikipedia (${host}) answered the ${what} with something that is not JSON: is ${options.baseUrl} the API endpoint (…/w/api.php)?`);
      }
      const apiError = isRecord(body) && isRecord(body.error) ? body.error : null;
      if (apiError) {
        const info = typeof apiError.info === 'string' ? apiError.info : String(apiError.code ?? 'unknown error');
        throw new Error(`Wikipedia (${host}) refused the ${what}: ${info}`);
      }
      return body;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  };

  const pageText = async (hit: SearchHit, signal: AbortSignal | undefined): Promise<string> => {
    const body = await call('page text request', { action: 'query', prop: 'extracts', explaintext: '1', pageids: String(hit.pageid) }, signal);
    const pages = isRecord(body) && isRecord(body.query) ? body.query.pages : undefined;
    const page = Array.isArray(pages) ? pages.find((p: unknown) => isRecord(p) && p.pageid === hit.pageid) : undefined;
    if (!isRecord(page) || page.missing === true) return '';
    return typeof page.extract === 'string' ? page.extract : '';
  };

  return {
    async search(query, searchOptions = {}) {
      const { signal } = searchOptions;
      signal?.throwIfAborted();
      if (!isOnline()) throw new Error('Wikipedia cannot be searched: this browser is offline.');
      const limit = searchOptions.limit ?? DEFAULT_SEARCH_LIMIT;
      const body = await call('search', { action: 'query', list: 'search', srsearch: query, srlimit: String(limit), srprop: '' }, signal);
      const results = isRecord(body) && isRecord(body.query) ? body.query.search : undefined;
      if (!Array.isArray(results)) throw new Error(`Wikipedia (${host}) answered the search without a list of results.`);
      const hits = results.filter(isSearchHit).slice(0, limit);
      const texts = await Promise.all(hits.map((hit) => pageText(hit, signal)));
      return hits.flatMap((hit, i): RetrievedDocument[] => {
        const text = texts[i]?.trim();
        return text ? [{ id: `wikipedia-${hit.pageid}`, title: cut(hit.title, MAX_TITLE_CHARS), text: cut(text, maxPageChars), score: Number.NaN }] : [];
      });
    },
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isSearchHit(value: unknown): value is SearchHit {
  return isRecord(value) && typeof value.pageid === 'number' && typeof value.title === 'string';
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    throw new Error(`The Wikipedia API address "${baseUrl}" is not a URL.`);
  }
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** At most `max` characters, cut at a word and marked. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const lastSpace = head.lastIndexOf(' ');
  return `${(lastSpace > max * 0.8 ? head.slice(0, lastSpace) : head).trimEnd()}…`;
}
