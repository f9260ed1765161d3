// The `retrieval` source against the real scripted server's /retrieve double: the request the
// reference sends (byte for byte as Python's json.dumps writes it, checked by running Python when
// it is installed), its reply read as the reference reads it, and a server that answers garbage,
// an error, late or not at all refused with a `retrieval` error naming the call.

import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { ScriptedServer } from '../../cli/scripted/scriptedServer.ts';
import { useScriptedServer } from '../../e2e/fixtures/scriptedServerHooks.ts';
import { needsUserAction, toErrorInfo } from '../../workers/engine/errors.ts';
import { createRetrievalRetriever, readRetrievalReply, retrievalRequestBody, RETRIEVAL_TOP_K } from './retrieval.ts';

let server: ScriptedServer;
useScriptedServer({ models: {} }, (started) => (server = started));

const LONG = `Who was the première danseuse ${'x'.repeat(500)}`;

const retriever = (topK: number = RETRIEVAL_TOP_K.frames, timeoutMs = 5000, eid: string | undefined = '17') =>
  createRetrievalRetriever({ baseUrl: server.url, topK, timeoutMs, ...(eid === undefined ? {} : { eid }) });

async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    return toErrorInfo(error);
  }
  throw new Error('the search did not fail');
}

describe('the retrieval source', () => {
  it("sends the reference's /retrieve request and reads its reply, content or contents, in the server's order", async () => {
    server.reset({
      models: {},
      retrieval: [{ documents: [{ content: '"Ada Lovelace"\nAda Lovelace was a mathematician.', score: 0.9, id: '7' }, { contents: '"Analytical Engine"\nA proposed computer.', score: 0.5 }] }],
    });
    const documents = await retriever().search(LONG);
    expect(documents).toEqual([
      { id: 'retrieval-7', title: 'Ada Lovelace', text: '"Ada Lovelace"\nAda Lovelace was a mathematician.', score: 0.9 },
      { id: 'retrieval-2', title: 'Analytical Engine', text: '"Analytical Engine"\nA proposed computer.', score: 0.5 },
    ]);
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/retrieve', body: { queries: [LONG.slice(0, 390)], topk: 150, return_scores: true, eid: '17' } });
    expect(Object.keys(request!.body as object)).toEqual(['queries', 'topk', 'return_scores', 'eid']);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(Number(request!.headers['content-length'])).toBe(Buffer.byteLength(retrievalRequestBody(LONG, 150, '17')));
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(!python && !process.env.CI)("writes the body as the reference's requests.post(json=payload) does (json.dumps, ASCII escapes; skipped only without python3)", () => {
    const query = 'Première “quoted” 🎉 query\n';
    const script = 'import json,sys; q=sys.argv[1]; print(json.dumps({"queries": [q[:390]], "topk": 50, "return_scores": True, "eid": "66f5e796acadd55c11fb11f5"}), end="")';
    const run = spawnSync('python3', ['-c', script, query], { encoding: 'utf8' });
    expect(run.stdout).toBe(retrievalRequestBody(query, 50, '66f5e796acadd55c11fb11f5'));
  });

  it('reads a reply as the reference does, and says where one that is not /retrieve’s went wrong', () => {
    expect(readRetrievalReply([[]], 'x')).toEqual([]);
    expect(() => readRetrievalReply({ results: [] }, 'The answer')).toThrow('The answer is not the /retrieve reply: a list holding the list of results was expected.');
    expect(() => readRetrievalReply([[{ document: { content: 'a' }, score: 1 }, { document: { text: 'b' } }]], 'The answer')).toThrow('The answer: result 2 has no document with a "content" or "contents" text.');
  });

  it('makes garbage, an error, silence and a hang a `retrieval` error naming the call, which stops a run', async () => {
    const cases: Array<[string, Parameters<ScriptedServer['reset']>[0], RegExp]> = [
      ['not JSON', { models: {}, retrieval: [{ raw: '<html>busy</html>' }] }, /^the retrieval server \(127\.0\.0\.1:\d+\) asked for "who wrote it" answered with something that is not JSON: "<html>busy<\/html>"\.$/],
      ['not the reply', { models: {}, retrieval: [{ raw: '{"hits": []}' }] }, /^The answer of the retrieval server \(.*\) asked for "who wrote it" is not the \/retrieve reply/],
      ['HTTP 500', { models: {}, retrieval: [{ fault: { kind: 'status', status: 500 } }] }, /asked for "who wrote it" answered HTTP 500/],
      ['a hang', { models: {}, retrieval: [{ fault: { kind: 'hang' } }] }, /asked for "who wrote it" gave no answer within 0\.3 s\.$/],
      ['too slow', { models: {}, retrieval: [{ fault: { kind: 'slow_first_byte', delayMs: 2000 } }] }, /gave no answer within 0\.3 s\.$/],
    ];
    for (const [what, scenario, message] of cases) {
      server.reset(scenario);
      const error = await failure(retriever(50, 300).search('who wrote it'));
      expect(error.code, what).toBe('retrieval');
      expect(error.message, what).toMatch(message);
    }
    const url = server.url;
    await server.close();
    const down = await failure(createRetrievalRetriever({ baseUrl: url, topK: 50, timeoutMs: 1000 }).search('who wrote it'));
    expect(down.message).toMatch(/asked for "who wrote it" could not be reached/);
    expect(needsUserAction(new Error(`[retrieval] ${down.message}`))).toBe(true);
  });
});
