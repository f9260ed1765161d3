// The reference's retriever as a search source: the dense Wikipedia retriever NVlabs/ToolOrchestra's
// FRAMES and HLE evaluations call (evaluation/eval_frames.py and eval_hle.py, call_tool's search),
// spoken exactly as they speak it: `POST {baseUrl}/retrieve` with the body Python's
// `requests.post(url, json=payload)` sends, `{"queries": [query[:390]], "topk": K,
// "return_scores": true, "eid": <task id>}`, read back as `[[{"document": {"content" | "contents":
// text}, "score": s}, …]]`: the documents' texts, in the server's order, are what the paper
// protocol lays out. A server that answers garbage, late or not at all is an error naming the
// call, of a code that stops the run (`retrieval`): a rollout without the paper's documents is an
// error, not a wrong answer.

import { BackendError } from '../../workers/engine/errors.ts';
import type { RetrievedDocument, Retriever } from '../../workers/engine/ports.ts';
import { pythonPrefix } from '../../workers/engine/pythonStrings.ts';
import { toPythonJson } from '../../workers/engine/qwen3/render.ts';
import { readTextUpTo } from '../../workers/engine/readTextUpTo.ts';

/** Characters of the query the reference sends (`query_to_call[:390]`). */
export const RETRIEVAL_QUERY_CHARS = 390;
/** The reference's top-k: 150 documents a search in FRAMES, 50 in HLE. */
export const RETRIEVAL_TOP_K = { frames: 150, hle: 50 } as const;
/** Bytes read of one answer: 150 passages of a few thousand characters are well under 8 MB. */
export const MAX_RETRIEVAL_ANSWER_BYTES = 8 * 1024 * 1024;
const MAX_TITLE_CHARS = 200;

export interface RetrievalRetrieverOptions {
  /** The server's base URL: requests go to `{baseUrl}/retrieve`. */
  baseUrl: string;
  /** Documents asked for (`topk`). */
  topK: number;
  timeoutMs: number;
  /** The task's id, sent as `eid` (the reference's server filters by it); left out when none. */
  eid?: string;
  fetch?: typeof fetch;
}

/** The request body, byte for byte as the reference's `requests.post(json=payload)` sends it. */
export function retrievalRequestBody(query: string, topK: number, eid: string | undefined): string {
  return toPythonJson({ queries: [pythonPrefix(query, RETRIEVAL_QUERY_CHARS)], topk: topK, return_scores: true, ...(eid === undefined ? {} : { eid }) }, { ensureAscii: true });
}

function failure(message: string, cause?: unknown): BackendError {
  return new BackendError({ code: 'retrieval', provider: 'retrieval', message, retryable: false, ...(cause === undefined ? {} : { cause }) });
}

/** The documents of a /retrieve reply (`results[0]`), as the reference reads them; anything else
 * is a failure saying where the reply went wrong. */
export function readRetrievalReply(body: unknown, where: string): RetrievedDocument[] {
  if (!Array.isArray(body) || !Array.isArray(body[0])) throw failure(`${where} is not the /retrieve reply: a list holding the list of results was expected.`);
  return (body[0] as unknown[]).map((entry, i) => {
    const document = typeof entry === 'object' && entry !== null ? (entry as { document?: unknown }).document : undefined;
    const fields = typeof document === 'object' && document !== null ? (document as Record<string, unknown>) : undefined;
    const text = fields ? (typeof fields.content === 'string' ? fields.content : fields.contents) : undefined;
    if (typeof text !== 'string') throw failure(`${where}: result ${i + 1} has no document with a "content" or "contents" text.`);
    const score = (entry as { score?: unknown }).score;
    const firstLine = text.split('\n', 1)[0]!.replace(/^"(.*)"$/, '$1').trim();
    const id = fields?.id;
    return {
      id: typeof id === 'string' || typeof id === 'number' ? `retrieval-${id}` : `retrieval-${i + 1}`,
      title: firstLine.slice(0, MAX_TITLE_CHARS) || `Passage ${i + 1}`,
      text,
      score: typeof score === 'number' ? score : Number.NaN,
    };
  });
}

export function createRetrievalRetriever(options: RetrievalRetrieverOptions): Retriever {
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const url = `${options.baseUrl.replace(/\/+$/, '')}/retrieve`;
  const host = new URL(url).host;
  return {
    async search(query, searchOptions = {}) {
      const { signal } = searchOptions;
      signal?.throwIfAborted();
      const call = `the retrieval server (${host}) asked for "${pythonPrefix(query, 60)}${query.length > 60 ? '…' : ''}"`;
      const timeout = AbortSignal.timeout(options.timeoutMs);
      const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
      let response: Response;
      let read: { text: string; truncated: boolean };
      try {
        response = await fetchImpl(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: retrievalRequestBody(query, options.topK, options.eid), signal: both });
        read = await readTextUpTo(response.body, MAX_RETRIEVAL_ANSWER_BYTES);
      } catch (error) {
        signal?.throwIfAborted();
        if (timeout.aborted) throw failure(`${call} gave no answer within ${options.timeoutMs / 1000} s.`, error);
        throw failure(`${call} could not be reached: the network failed, the server is down, or it does not allow requests from this page (CORS).`, error);
      }
      if (read.truncated) throw failure(`${call} sent more than ${MAX_RETRIEVAL_ANSWER_BYTES / (1024 * 1024)} MiB: it was not read further.`);
      if (!response.ok) throw failure(`${call} answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`);
      let body: unknown;
      try {
        body = JSON.parse(read.text);
      } catch {
        throw failure(`${call} answered with something that is not JSON: ${JSON.stringify(read.text.slice(0, 80))}.`);
      }
      return readRetrievalReply(body, `The answer of ${call}`);
    },
  };
}
