// A real HTTP server that plays scripted model answers, in OpenAI's (Chat Completions and
// Responses) and Anthropic's wire formats, with injectable faults. Tests start it on an ephemeral port; Playwright and demos run it as a
// process: `tsx cli/scripted/scriptedServer.ts --scenario <file.json> [--port N]` prints its URL.
//
// Endpoints: POST /v1/chat/completions, POST /v1/responses, GET /v1/models, POST /v1/messages,
// POST /retrieve (the reference's dense retriever: scripted documents), plus admin ones that
// are not recorded: POST /__admin/fault (a Fault, or null to clear), POST /__admin/reset (an
// optional new scenario), GET /__admin/requests.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFault, parseScenario, type Fault, type FloodField, type Scenario, type ScriptedResponse, type ScriptedRetrieval, type ScriptedUsage } from './scenario.ts';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names, as Node gives them. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it is not JSON, or undefined when empty. */
  body: unknown;
  /** Date.now() when the request arrived. */
  time: number;
  /** Characters of flood filler written for it before the client stopped reading (floods only). */
  floodChars?: number;
}

/** The recorded request each response answers, for what a flood writes. */
const recordOf = new WeakMap<ServerResponse, RecordedRequest>();

export interface ScriptedServer {
  /** e.g. http://127.0.0.1:PORT (no trailing slash, no /v1). */
  url: string;
  /** Every request except admin ones, oldest first. Emptied in place by reset. */
  requests: RecordedRequest[];
  close(): Promise<void>;
  /** Forgets requests, consumption and fault counts; swaps the scenario when one is given, and
   * sets the server-wide fault to the scenario's. */
  reset(scenario?: Scenario): void;
  /** Sets (or with null clears) the server-wide fault, as POST /__admin/fault does. */
  setFault(fault: Fault | null): void;
}

export interface ScriptedServerOptions {
  scenario: Scenario;
  /** Default 0: an ephemeral port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
}

const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers':
    'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
  // Retry-After is not a CORS-safelisted response header: a browser client can only read it if exposed.
  'access-control-expose-headers': 'retry-after',
  'access-control-max-age': '600',
};

const DEFAULT_CHUNK_SIZE = 16;

const DIALECTS: Record<string, Dialect | undefined> = {
  'POST /v1/chat/completions': 'openai',
  'POST /v1/responses': 'responses',
  'POST /v1/messages': 'anthropic',
};

/** Faults after which the response has not been served, so it stays unconsumed. */
const FAILING_FAULTS: ReadonlySet<Fault['kind']> = new Set(['status', 'drop_mid_stream', 'malformed_chunk', 'stream_error', 'hang', 'redirect']);

function failsResponse(fault: Fault): boolean {
  return FAILING_FAULTS.has(fault.kind) || (fault.kind === 'flood' && fault.field === 'error_body');
}

/** Characters per flood event unless the fault says otherwise. */
const DEFAULT_FLOOD_PIECE_CHARS = 65_536;

type Dialect = 'openai' | 'responses' | 'anthropic';

/** The key /retrieve's answers are counted under (no model is named so). */
const RETRIEVE = ' /retrieve';

class ScriptState {
  scenario: Scenario;
  private consumed = new Map<string, Set<number>>();
  private faultsFired = new Map<string, number[]>();
  private serverFault: { fault: Fault; remaining: number } | null = null;

  constructor(scenario: Scenario) {
    this.scenario = scenario;
    this.setServerFault(scenario.fault ?? null);
  }

  reset(scenario: Scenario): void {
    this.scenario = scenario;
    this.consumed.clear();
    this.faultsFired.clear();
    this.setServerFault(scenario.fault ?? null);
  }

  setServerFault(fault: Fault | null): void {
    this.serverFault = fault ? { fault, remaining: fault.times ?? Number.POSITIVE_INFINITY } : null;
  }

  /** The server-wide fault, counted as fired once. */
  takeServerFault(): Fault | undefined {
    if (!this.serverFault) return undefined;
    const { fault } = this.serverFault;
    this.serverFault.remaining -= 1;
    if (this.serverFault.remaining <= 0) this.serverFault = null;
    return fault;
  }

  /** Whether a server-wide no_cors is active (preflights do not count as firing it). */
  get corsDisabled(): boolean {
    return this.serverFault?.fault.kind === 'no_cors';
  }

  /** The first unconsumed response for this model whose `when` matches. */
  pick(model: string, lastUserMessage: string): { index: number; response: ScriptedResponse } | undefined {
    return this.pickFrom(model, this.scenario.models[model] ?? [], lastUserMessage);
  }

  /** The first unconsumed answer of `/retrieve` whose `when` the query contains. */
  pickRetrieval(query: string): { index: number; response: ScriptedRetrieval } | undefined {
    return this.pickFrom(RETRIEVE, this.scenario.retrieval ?? [], query);
  }

  private pickFrom<T extends { when?: string }>(key: string, responses: readonly T[], lastUserMessage: string): { index: number; response: T } | undefined {
    const consumed = this.consumed.get(key);
    for (const [index, response] of responses.entries()) {
      if (consumed?.has(index)) continue;
      if (response.when !== undefined && !lastUserMessage.includes(response.when)) continue;
      return { index, response };
    }
    return undefined;
  }

  /** The response's own fault, if it still has firings left (counted as fired once). */
  takeResponseFault(model: string, index: number, response: { fault?: Fault }): Fault | undefined {
    if (!response.fault) return undefined;
    const fired = this.faultsFired.get(model) ?? [];
    this.faultsFired.set(model, fired);
    const count = fired[index] ?? 0;
    if (count >= (response.fault.times ?? 1)) return undefined;
    fired[index] = count + 1;
    return response.fault;
  }

  consume(model: string, index: number, response: { repeat?: boolean }): void {
    if (response.repeat) return;
    const consumed = this.consumed.get(model) ?? new Set<number>();
    consumed.add(index);
    this.consumed.set(model, consumed);
  }

  /** Puts a response back, for a client that hung up before it was served in full (a client
   * timeout): its retry gets the same response. */
  release(model: string, index: number): void {
    this.consumed.get(model)?.delete(index);
  }
}

// eslint-disable-next-line max-lines-per-function -- the server's routes share the scenario's cursors and the request log
export async function startScriptedServer(options: ScriptedServerOptions): Promise<ScriptedServer> {
  const state = new ScriptState(parseScenario(options.scenario));
  const requests: RecordedRequest[] = [];
  let sequence = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent && !res.destroyed) {
        sendJson(res, 500, { error: { message: `Scripted server failed: ${String(error)}`, type: 'scripted_server_error' } }, true);
      } else {
        res.destroy();
      }
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://scripted').pathname;
    const method = req.method ?? 'GET';
    const body = await readBody(req);

    if (path.startsWith('/__admin/')) {
      handleAdmin(method, path, body, res);
      return;
    }
    const recorded: RecordedRequest = { method, path, headers: flattenHeaders(req), body, time: Date.now() };
    requests.push(recorded);
    recordOf.set(res, recorded);

    if (method === 'OPTIONS') {
      res.writeHead(204, state.corsDisabled ? {} : CORS_HEADERS).end();
      return;
    }
    const serverFault = state.takeServerFault();
    const route = `${method} ${path}`;
    if (route === 'GET /v1/models') {
      await serveWithFault(res, serverFault, 'openai', req, () => {
        const data = Object.keys(state.scenario.models).map((id) => ({ id, object: 'model', created: 0, owned_by: 'scripted' }));
        sendJson(res, 200, { object: 'list', data }, !isNoCors(serverFault));
      });
      return;
    }
    if (route === 'POST /retrieve') {
      await serveRetrieval(res, req, (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>, serverFault);
      return;
    }
    const dialect = DIALECTS[route];
    if (!dialect) {
      sendJson(res, 404, { error: { message: `Scripted server: no route for ${route}.`, type: 'not_found' } }, true);
      return;
    }
    const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
    const model = typeof request.model === 'string' ? request.model : '';
    const lastUser = lastUserMessage(dialect === 'responses' ? request.input : request.messages);
    const picked = state.pick(model, lastUser);
    if (!picked) {
      const known = Object.keys(state.scenario.models).map((id) => `"${id}"`).join(', ') || 'none';
      const message =
        `Scripted server: no response left for model "${model}" (last user message: ${JSON.stringify(lastUser.slice(0, 120))}). ` +
        `Models in the scenario: ${known}.`;
      sendJson(res, 500, { error: { message, type: 'scripted_server_error' } }, true);
      return;
    }
    const fault = serverFault ?? state.takeResponseFault(model, picked.index, picked.response);
    const consumes = !fault || !failsResponse(fault);
    // Consumed when picked, so concurrent requests never get the same response.
    if (consumes) state.consume(model, picked.index, picked.response);
    sequence += 1;
    const echoed = withEchoedFault(fault, req);
    await serveWithFault(res, echoed, dialect, req, () =>
      serveCompletion(res, { dialect, request, model, response: withEchoedKey(picked.response, req), fault: echoed, id: sequence }),
    );
    if (consumes && !res.writableFinished) state.release(model, picked.index);
  }

  /** The reference's /retrieve: the next scripted answer for the query, `[documents]`. */
  async function serveRetrieval(res: ServerResponse, req: IncomingMessage, request: Record<string, unknown>, serverFault: Fault | undefined): Promise<void> {
    const query = Array.isArray(request.queries) && typeof request.queries[0] === 'string' ? request.queries[0] : '';
    const picked = state.pickRetrieval(query);
    if (!picked) {
      sendJson(res, 500, { detail: `Scripted server: no /retrieve answer left for ${JSON.stringify(query.slice(0, 120))}.` }, true);
      return;
    }
    const fault = serverFault ?? state.takeResponseFault(RETRIEVE, picked.index, picked.response);
    if (!fault || !failsResponse(fault)) state.consume(RETRIEVE, picked.index, picked.response);
    await serveWithFault(res, fault, 'openai', req, () => {
      const { raw, documents = [] } = picked.response;
      if (raw !== undefined) {
        res.writeHead(200, { 'content-type': 'application/json', ...CORS_HEADERS }).end(raw);
        return;
      }
      const results = documents.map(({ score, ...document }) => ({ document, score }));
      sendJson(res, 200, [results], true);
    });
  }

  function handleAdmin(method: string, path: string, body: unknown, res: ServerResponse): void {
    try {
      if (method === 'POST' && path === '/__admin/fault') {
        state.setServerFault(body === null || body === undefined ? null : parseFault(body));
        sendJson(res, 200, { ok: true }, true);
      } else if (method === 'POST' && path === '/__admin/reset') {
        resetAll(body === undefined ? undefined : parseScenario(body));
        sendJson(res, 200, { ok: true }, true);
      } else if (method === 'GET' && path === '/__admin/requests') {
        sendJson(res, 200, requests, true);
      } else {
        sendJson(res, 404, { error: { message: `No admin route ${method} ${path}` } }, true);
      }
    } catch (error) {
      sendJson(res, 400, { error: { message: error instanceof Error ? error.message : String(error) } }, true);
    }
  }

  function resetAll(scenario?: Scenario): void {
    requests.length = 0;
    state.reset(scenario ? parseScenario(scenario) : state.scenario);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;

  return {
    url: `http://${host}:${address.port}`,
    requests,
    reset: resetAll,
    setFault: (fault) => state.setServerFault(fault ? parseFault(fault) : null),
    // Idempotent: a test may stop the server itself (to prove nothing calls it) before its fixture does.
    close: () =>
      new Promise<void>((resolve, reject) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close((error) => (error ? reject(error) : resolve()));
        // Keep-alive and hung connections would otherwise hold close() open forever.
        server.closeAllConnections();
      }),
  };
}

/** Applies the transport part of a fault (delay, status, hang), then lets `serve` answer. */
async function serveWithFault(
  res: ServerResponse,
  fault: Fault | undefined,
  dialect: Dialect,
  req: IncomingMessage,
  serve: () => void | Promise<void>,
): Promise<void> {
  if (fault?.kind === 'hang') return;
  if (fault?.kind === 'slow_first_byte') {
    await pause(fault.delayMs, res);
    if (res.destroyed) return;
  }
  if (fault?.kind === 'status') {
    const headers: Record<string, string> = {};
    if (fault.retryAfterSeconds !== undefined || fault.status === 429) headers['retry-after'] = String(fault.retryAfterSeconds ?? 1);
    sendJson(res, fault.status, errorBody(dialect, fault.status, fault.message ?? defaultErrorMessage(fault.status, req)), true, headers);
    return;
  }
  if (fault?.kind === 'redirect') {
    // CORS headers on the redirect itself, so a browser that follows redirects does follow it.
    res.writeHead(fault.status ?? 307, { location: fault.location, ...CORS_HEADERS }).end();
    return;
  }
  if (fault?.kind === 'flood' && fault.field === 'error_body') {
    const [before, after] = splitAtFlood(JSON.stringify(errorBody(dialect, 500, FLOOD_MARK)));
    res.writeHead(500, { 'content-type': 'application/json', ...CORS_HEADERS });
    await writeFlood(res, before, after, fault);
    return;
  }
  await serve();
}

/** Stands for the filler in a message built as usual; JSON.stringify writes it as FLOOD_MARK_JSON. */
const FLOOD_MARK = '\u0000flood\u0000';
const FLOOD_MARK_JSON = JSON.stringify(FLOOD_MARK).slice(1, -1);

/** A JSON text around the flood mark, as the text before and after it. */
function splitAtFlood(json: string): [string, string] {
  const at = json.indexOf(FLOOD_MARK_JSON);
  if (at === -1) throw new Error('the flood mark is missing from the message');
  return [json.slice(0, at), json.slice(at + FLOOD_MARK_JSON.length)];
}

/** Writes `before`, the fault's filler characters, then `after`, minding backpressure and stopping
 * when the client hangs up. */
async function writeFlood(res: ServerResponse, before: string, after: string, fault: Extract<Fault, { kind: 'flood' }>): Promise<void> {
  await write(res, before);
  const recorded = recordOf.get(res);
  for (const piece of floodPieces(fault)) {
    if (res.destroyed) return;
    await write(res, piece);
    if (recorded) recorded.floodChars = (recorded.floodChars ?? 0) + piece.length;
  }
  if (!res.destroyed) res.end(after);
}

/** The filler, piece by piece: built as it is sent. */
function* floodPieces(fault: Extract<Fault, { kind: 'flood' }>): Generator<string> {
  const size = fault.pieceChars ?? DEFAULT_FLOOD_PIECE_CHARS;
  const full = 'x'.repeat(size);
  for (let sent = 0; sent < fault.chars; sent += size) yield sent + size <= fault.chars ? full : full.slice(0, fault.chars - sent);
}

/** Resolves once the bytes have left (or the client has gone). */
function write(res: ServerResponse, text: string): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) {
      resolve();
      return;
    }
    res.write(text, () => resolve());
  });
}

interface CompletionPlan {
  dialect: Dialect;
  request: Record<string, unknown>;
  model: string;
  response: ScriptedResponse;
  fault: Fault | undefined;
  id: number;
}

async function serveCompletion(res: ServerResponse, plan: CompletionPlan): Promise<void> {
  const { dialect, request, response, fault } = plan;
  const cors = !isNoCors(fault);
  const extraHeaders = response.headers ?? {};
  if (request.stream !== true || response.ignoreStream) {
    if (fault?.kind === 'drop_mid_stream') {
      res.writeHead(200, { 'content-type': 'application/json', ...(cors ? CORS_HEADERS : {}) });
      res.flushHeaders();
      res.destroy();
      return;
    }
    if (fault?.kind === 'malformed_chunk') {
      res.writeHead(200, { 'content-type': 'application/json', ...(cors ? CORS_HEADERS : {}) }).end('{not json');
      return;
    }
    if (fault?.kind === 'flood') {
      const [before, after] = splitAtFlood(JSON.stringify(wholeAnswer({ ...plan, response: withFloodMark(response, fault.field) })));
      res.writeHead(200, { 'content-type': 'application/json', ...(cors ? CORS_HEADERS : {}), ...extraHeaders });
      await writeFlood(res, before, after, fault);
      return;
    }
    sendJson(res, 200, wholeAnswer(plan), cors, extraHeaders);
    return;
  }
  const events = dialect === 'openai' ? openaiStream(plan) : dialect === 'responses' ? responsesStream(plan) : anthropicStream(plan);
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    ...(cors ? CORS_HEADERS : {}),
    ...extraHeaders,
  });
  res.flushHeaders();
  const faultAt = fault && 'afterChunks' in fault ? Math.min(fault.afterChunks ?? 1, events.length) : fault?.kind === 'flood' ? 1 : undefined;
  for (let i = 0; i <= events.length; i++) {
    if (res.destroyed) return;
    if (i === faultAt && fault?.kind === 'flood') {
      // Small events leave in batches, so a flood of one-character events is as fast as a big one.
      const recorded = recordOf.get(res);
      let batch = '';
      for (const event of floodEvents(plan, fault)) {
        batch += event;
        if (batch.length < 65_536) continue;
        if (res.destroyed) return;
        await write(res, batch);
        if (recorded) recorded.floodChars = (recorded.floodChars ?? 0) + batch.length;
        batch = '';
      }
      await write(res, batch);
    } else if (i === faultAt && fault) {
      if (fault.kind === 'drop_mid_stream') {
        res.destroy();
        return;
      }
      if (fault.kind === 'malformed_chunk') res.end('data: {not json\n\n');
      if (fault.kind === 'stream_error') res.end(streamErrorEvent(dialect, fault));
      return;
    }
    const event = events[i];
    if (event === undefined) break;
    // Wait for the bytes to leave, so a later drop cannot swallow chunks already "sent".
    await new Promise<void>((resolve) => res.write(event, () => resolve()));
    if ((response.chunkDelayMs ?? 0) > 0 && i < events.length - 1) await pause(response.chunkDelayMs ?? 0, res);
  }
  res.end();
}

function sseEvent(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;
}

/** The response with the flood mark in the flooded field, for a non-streamed flood. */
function withFloodMark(response: ScriptedResponse, field: FloodField): ScriptedResponse {
  if (field === 'reasoning') return { ...response, reasoning: FLOOD_MARK };
  if (field === 'tool_arguments') return { ...response, toolCalls: [{ id: 'call_flood', name: 'flood', arguments: FLOOD_MARK }] };
  return { ...response, content: FLOOD_MARK };
}

/** The one JSON answer of a request that did not ask to stream. */
function wholeAnswer(plan: CompletionPlan): Record<string, unknown> {
  if (plan.dialect === 'openai') return openaiMessage(plan);
  return plan.dialect === 'responses' ? responsesAnswer(plan) : anthropicMessage(plan);
}

/** A streamed flood: each piece of filler as one event of the dialect, in the flooded field. */
function* floodEvents(plan: CompletionPlan, fault: Extract<Fault, { kind: 'flood' }>): Generator<string> {
  if (plan.dialect === 'responses') {
    const event = (type: string, fields: Record<string, unknown>) => sseEvent({ type, ...fields }, type);
    if (fault.field === 'tool_arguments') {
      yield event('response.output_item.added', { output_index: 0, item: { type: 'function_call', id: 'fc_flood', call_id: 'call_flood', name: 'flood', arguments: '' } });
    }
    const type = { content: 'response.output_text.delta', reasoning: 'response.reasoning_summary_text.delta', tool_arguments: 'response.function_call_arguments.delta', error_body: '' }[fault.field];
    for (const piece of floodPieces(fault)) yield event(type, { item_id: 'flood', output_index: 0, delta: piece });
    return;
  }
  if (plan.dialect === 'anthropic') {
    const thinking = fault.field === 'reasoning';
    for (const piece of floodPieces(fault)) {
      const delta = thinking ? { type: 'thinking_delta', thinking: piece } : { type: 'text_delta', text: piece };
      yield sseEvent({ type: 'content_block_delta', index: 0, delta }, 'content_block_delta');
    }
    return;
  }
  const base = { id: `chatcmpl-scripted-${plan.id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: plan.model };
  const chunk = (delta: Record<string, unknown>) => sseEvent({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: null }] });
  if (fault.field === 'tool_arguments') {
    yield chunk({ tool_calls: [{ index: 0, id: 'call_flood', type: 'function', function: { name: 'flood', arguments: '' } }] });
  }
  for (const piece of floodPieces(fault)) {
    if (fault.field === 'tool_arguments') yield chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] });
    else yield chunk(fault.field === 'reasoning' ? { reasoning_content: piece } : { content: piece });
  }
}

function pieces(text: string, size: number): string[] {
  const characters = Array.from(text);
  const result: string[] = [];
  for (let i = 0; i < characters.length; i += size) result.push(characters.slice(i, i + size).join(''));
  return result;
}

function finishReasonOf(response: ScriptedResponse): 'stop' | 'length' | 'tool_calls' {
  return response.finishReason ?? (response.toolCalls?.length ? 'tool_calls' : 'stop');
}

function toolCallsOf(response: ScriptedResponse): Array<{ id: string; name: string; arguments: string; index: number }> {
  return (response.toolCalls ?? []).map((call, i) => ({
    index: call.index ?? i,
    id: call.id ?? `call_${i}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
}

function openaiUsage(usage: ScriptedUsage): Record<string, unknown> {
  const shaped: Record<string, unknown> = {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
  };
  if (usage.cached_tokens !== undefined) shaped.prompt_tokens_details = { cached_tokens: usage.cached_tokens };
  if (usage.reasoning_tokens !== undefined) shaped.completion_tokens_details = { reasoning_tokens: usage.reasoning_tokens };
  if (usage.cost !== undefined) shaped.cost = usage.cost;
  return shaped;
}

function openaiMessage(plan: CompletionPlan): Record<string, unknown> {
  const { response } = plan;
  const message: Record<string, unknown> = { role: 'assistant', content: response.content };
  if (response.reasoning !== undefined) message.reasoning_content = response.reasoning;
  const calls = toolCallsOf(response);
  if (calls.length > 0) {
    message.tool_calls = calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  return {
    id: `chatcmpl-scripted-${plan.id}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: plan.model,
    choices: [{ index: 0, message, finish_reason: finishReasonOf(response) }],
    ...(response.usage ? { usage: openaiUsage(response.usage) } : {}),
  };
}

/** Chunks as vLLM streams them: a role chunk, reasoning, content, tool calls (name first, then
 * argument pieces, by index), the finish reason, usage when asked for, then [DONE]. */
function openaiStream(plan: CompletionPlan): string[] {
  const { response } = plan;
  const size = response.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const base = { id: `chatcmpl-scripted-${plan.id}`, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: plan.model };
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    sseEvent({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(response.reasoning ?? '', size)) events.push(chunk({ reasoning_content: piece }));
  for (const piece of pieces(response.content, size)) events.push(chunk({ content: piece }));
  toolCallsOf(response).forEach(({ index, ...call }) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of pieces(call.arguments, size)) events.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  events.push(chunk({}, finishReasonOf(response)));
  const streamOptions = plan.request.stream_options as { include_usage?: unknown } | undefined;
  if (response.usage && streamOptions?.include_usage === true) {
    events.push(sseEvent({ ...base, choices: [], usage: openaiUsage(response.usage) }));
  }
  events.push(sseEvent('[DONE]'));
  return events;
}

function responsesUsage(usage: ScriptedUsage): Record<string, unknown> {
  return {
    input_tokens: usage.prompt_tokens,
    input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
    output_tokens: usage.completion_tokens,
    output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
    total_tokens: usage.prompt_tokens + usage.completion_tokens,
    ...(usage.cost !== undefined ? { cost: usage.cost } : {}),
  };
}

/** The output items of a Responses answer, as OpenAI orders them: a reasoning summary, the
 * message (left out when the model only called functions), then each function call. */
function responsesOutput(plan: CompletionPlan): Array<Record<string, unknown>> {
  const { response } = plan;
  const items: Array<Record<string, unknown>> = [];
  if (response.reasoning !== undefined) {
    items.push({ type: 'reasoning', id: `rs_scripted_${plan.id}`, summary: [{ type: 'summary_text', text: response.reasoning }] });
  }
  const calls = toolCallsOf(response);
  if (response.content !== '' || calls.length === 0) {
    items.push({
      type: 'message',
      id: `msg_scripted_${plan.id}`,
      status: 'completed',
      role: 'assistant',
      content: [{ type: 'output_text', text: response.content, annotations: [] }],
    });
  }
  calls.forEach((call, i) => {
    items.push({ type: 'function_call', id: `fc_scripted_${plan.id}_${i}`, call_id: call.id, name: call.name, arguments: call.arguments, status: 'completed' });
  });
  return items;
}

/** The response object: `completed`, or `incomplete` when the script ends on its length. */
function responsesAnswer(plan: CompletionPlan, output = responsesOutput(plan)): Record<string, unknown> {
  const { response } = plan;
  const incomplete = finishReasonOf(response) === 'length';
  return {
    id: `resp_scripted_${plan.id}`,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status: incomplete ? 'incomplete' : 'completed',
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    error: null,
    model: plan.model,
    output,
    ...(response.usage ? { usage: responsesUsage(response.usage) } : {}),
  };
}

/** Events as the Responses API streams them: each output item added, its text, summary or
 * arguments in pieces, done; then `response.completed` (or `response.incomplete`) with the whole
 * response. No [DONE]. */
function responsesStream(plan: CompletionPlan): string[] {
  const size = plan.response.chunkSize ?? DEFAULT_CHUNK_SIZE;
  let sequence = 0;
  const event = (type: string, fields: Record<string, unknown>) => sseEvent({ type, sequence_number: sequence++, ...fields }, type);
  const output = responsesOutput(plan);
  const events = [event('response.created', { response: { ...responsesAnswer(plan, []), status: 'in_progress', incomplete_details: null } })];
  output.forEach((item, output_index) => {
    const item_id = item.id;
    if (item.type === 'reasoning') {
      const text = (item.summary as Array<{ text: string }>)[0]!.text;
      events.push(event('response.output_item.added', { output_index, item: { ...item, summary: [] } }));
      for (const delta of pieces(text, size)) events.push(event('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta }));
      events.push(event('response.reasoning_summary_text.done', { item_id, output_index, summary_index: 0, text }));
    } else if (item.type === 'message') {
      const text = (item.content as Array<{ text: string }>)[0]!.text;
      events.push(event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } }));
      events.push(event('response.content_part.added', { item_id, output_index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } }));
      for (const delta of pieces(text, size)) events.push(event('response.output_text.delta', { item_id, output_index, content_index: 0, delta }));
      events.push(event('response.output_text.done', { item_id, output_index, content_index: 0, text }));
      events.push(event('response.content_part.done', { item_id, output_index, content_index: 0, part: { type: 'output_text', text, annotations: [] } }));
    } else {
      const args = String(item.arguments);
      events.push(event('response.output_item.added', { output_index, item: { ...item, arguments: '', status: 'in_progress' } }));
      for (const delta of pieces(args, size)) events.push(event('response.function_call_arguments.delta', { item_id, output_index, delta }));
      events.push(event('response.function_call_arguments.done', { item_id, output_index, arguments: args }));
    }
    events.push(event('response.output_item.done', { output_index, item }));
  });
  const answer = responsesAnswer(plan, output);
  events.push(event(answer.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: answer }));
  return events;
}

const ANTHROPIC_STOP_REASON = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use' } as const;

function anthropicUsage(usage: ScriptedUsage): Record<string, number> {
  const cached = usage.cached_tokens ?? 0;
  const written = usage.cache_write_tokens ?? 0;
  return {
    input_tokens: usage.prompt_tokens - cached - written,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: written,
    output_tokens: usage.completion_tokens,
  };
}

function anthropicMessage(plan: CompletionPlan): Record<string, unknown> {
  const { response } = plan;
  const content: Array<Record<string, unknown>> = [];
  if (response.reasoning !== undefined) content.push({ type: 'thinking', thinking: response.reasoning, signature: 'scripted' });
  content.push({ type: 'text', text: response.content });
  return {
    id: `msg_scripted_${plan.id}`,
    type: 'message',
    role: 'assistant',
    model: plan.model,
    content,
    stop_reason: ANTHROPIC_STOP_REASON[finishReasonOf(response)],
    stop_sequence: null,
    ...(response.usage ? { usage: anthropicUsage(response.usage) } : {}),
  };
}

/** Events as Anthropic streams them (tool calls are not scripted for this dialect). */
function anthropicStream(plan: CompletionPlan): string[] {
  const { response } = plan;
  const size = response.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const usage = response.usage ? anthropicUsage(response.usage) : undefined;
  const event = (type: string, fields: Record<string, unknown>) => sseEvent({ type, ...fields }, type);
  const events = [
    event('message_start', {
      message: {
        id: `msg_scripted_${plan.id}`,
        type: 'message',
        role: 'assistant',
        model: plan.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        ...(usage ? { usage: { ...usage, output_tokens: 1 } } : {}),
      },
    }),
    event('ping', {}),
  ];
  let index = 0;
  if (response.reasoning !== undefined) {
    events.push(event('content_block_start', { index, content_block: { type: 'thinking', thinking: '' } }));
    for (const piece of pieces(response.reasoning, size)) {
      events.push(event('content_block_delta', { index, delta: { type: 'thinking_delta', thinking: piece } }));
    }
    events.push(event('content_block_delta', { index, delta: { type: 'signature_delta', signature: 'scripted' } }));
    events.push(event('content_block_stop', { index }));
    index += 1;
  }
  events.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
  for (const piece of pieces(response.content, size)) {
    events.push(event('content_block_delta', { index, delta: { type: 'text_delta', text: piece } }));
  }
  events.push(event('content_block_stop', { index }));
  events.push(
    event('message_delta', {
      delta: { stop_reason: ANTHROPIC_STOP_REASON[finishReasonOf(response)], stop_sequence: null },
      ...(usage ? { usage: { output_tokens: usage.output_tokens } } : {}),
    }),
  );
  events.push(event('message_stop', {}));
  return events;
}

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  529: 'overloaded_error',
};

function errorBody(dialect: Dialect, status: number, message: string): Record<string, unknown> {
  if (dialect === 'anthropic') {
    return { type: 'error', error: { type: ANTHROPIC_ERROR_TYPES[status] ?? 'api_error', message } };
  }
  return { error: { message, type: status === 401 ? 'invalid_request_error' : 'scripted_fault', code: status } };
}

/** The key a request carried (a bearer token or Anthropic's x-api-key), or ''. */
function keyOf(req: IncomingMessage): string {
  const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
  return bearer ?? String(req.headers['x-api-key'] ?? '');
}

/** The forms of the key a scripted text may echo, as a debugging gateway (or a hostile server)
 * does: as is, base64, URL-encoded, every character a JSON `\u` escape, base64 wrapped with a
 * CRLF every 16 characters (MIME style, so any key is split; `_json`: the CRLF written as JSON
 * escapes), and cut short by its last 4 characters (a reply that ends inside the key). */
const KEY_ECHOES: Record<string, (key: string) => string> = {
  '{{api_key}}': (key) => key,
  '{{api_key_base64}}': (key) => Buffer.from(key).toString('base64'),
  '{{api_key_url}}': (key) => encodeURIComponent(key),
  '{{api_key_json_u}}': (key) => [...key].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  '{{api_key_base64_lines}}': (key) => Buffer.from(key).toString('base64').replace(/.{16}(?=.)/g, '$&\r\n'),
  // The same inside a JSON string (a tool call's arguments): the line breaks as JSON escapes.
  '{{api_key_base64_lines_json}}': (key) => Buffer.from(key).toString('base64').replace(/.{16}(?=.)/g, '$&\\r\\n'),
  '{{api_key_cut}}': (key) => key.slice(0, -4),
};

function echoKey(text: string, key: string): string {
  if (!text.includes('{{api_key')) return text;
  let out = text;
  for (const [template, form] of Object.entries(KEY_ECHOES)) out = out.replaceAll(template, form(key));
  return out;
}

/** The response with the key this request carried echoed where its text asks (KEY_ECHOES): in
 * its content, reasoning and tool calls' arguments. */
function withEchoedKey(response: ScriptedResponse, req: IncomingMessage): ScriptedResponse {
  const key = keyOf(req);
  const echo = (text: string) => echoKey(text, key);
  return {
    ...response,
    content: echo(response.content),
    ...(response.reasoning === undefined ? {} : { reasoning: echo(response.reasoning) }),
    ...(response.toolCalls === undefined
      ? {}
      : { toolCalls: response.toolCalls.map((call) => ({ ...call, arguments: echo(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments)) })) }),
  };
}

/** The fault with the key echoed in its message (a provider's 401 that quotes the key). */
function withEchoedFault(fault: Fault | undefined, req: IncomingMessage): Fault | undefined {
  return fault && 'message' in fault && fault.message !== undefined ? { ...fault, message: echoKey(fault.message, keyOf(req)) } : fault;
}

function defaultErrorMessage(status: number, req: IncomingMessage): string {
  if (status === 401) {
    // Real providers echo (part of) the key they got; echoing all of it tests that clients redact it.
    return `Incorrect API key provided: ${keyOf(req)}.`;
  }
  if (status === 429) return 'Rate limit reached (scripted fault).';
  return `Scripted fault: HTTP ${status}.`;
}

function streamErrorEvent(dialect: Dialect, fault: Extract<Fault, { kind: 'stream_error' }>): string {
  if (dialect === 'responses') {
    const status = fault.status ?? 500;
    return sseEvent({ type: 'error', code: status, message: fault.message ?? `Scripted stream error: HTTP ${status}.`, param: null }, 'error');
  }
  if (dialect === 'anthropic') {
    const type = fault.errorType ?? 'overloaded_error';
    return sseEvent({ type: 'error', error: { type, message: fault.message ?? `Scripted stream error: ${type}.` } }, 'error');
  }
  const status = fault.status ?? 500;
  return sseEvent({ error: { message: fault.message ?? `Scripted stream error: HTTP ${status}.`, code: status } });
}

function isNoCors(fault: Fault | undefined): boolean {
  return fault?.kind === 'no_cors';
}

function sendJson(res: ServerResponse, status: number, body: unknown, cors: boolean, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(cors ? CORS_HEADERS : {}), ...headers });
  res.end(JSON.stringify(body));
}

/** Waits, or stops early when the client goes away. */
function pause(ms: number, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.on('close', done);
  });
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** The text of the last user message, in OpenAI (string or parts; Responses input items) or
 * Anthropic (blocks) form. */
function lastUserMessage(messages: unknown): string {
  if (typeof messages === 'string') return messages;
  if (!Array.isArray(messages)) return '';
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i] as { role?: unknown; content?: unknown } | undefined;
    if (message?.role !== 'user') continue;
    if (typeof message.content === 'string') return message.content;
    if (Array.isArray(message.content)) {
      return message.content
        .map((part: unknown) => (typeof (part as { text?: unknown })?.text === 'string' ? (part as { text: string }).text : ''))
        .join('');
    }
    return '';
  }
  return '';
}
