import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readSse } from '../../workers/backends/http/sse.ts';
import { parseScenario, type Scenario } from './scenario.ts';
import { startScriptedServer, type ScriptedServer } from './scriptedServer.ts';

const SCENARIOS_DIR = fileURLToPath(new URL('../../e2e/fixtures/scenarios/', import.meta.url));

const SCENARIO: Scenario = {
  models: {
    m: [
      { when: 'weather', content: 'Sunny.' },
      { content: 'first' },
      { content: 'second', repeat: true },
    ],
    tools: [
      {
        reasoning: 'think',
        content: 'ab',
        chunkSize: 4,
        toolCalls: [{ name: 'search', arguments: { model: 'search-1', q: 'abcdefgh' } }],
        usage: { prompt_tokens: 10, completion_tokens: 4, cached_tokens: 2, reasoning_tokens: 1, cost: 0.5 },
      },
    ],
  },
};

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer({ scenario: SCENARIO });
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset(SCENARIO));

function chat(body: Record<string, unknown>, path = '/v1/chat/completions'): Promise<Response> {
  return fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

function ask(model: string, text: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return chat({ model, messages: [{ role: 'system', content: 'weather' }, { role: 'user', content: text }], ...extra });
}

async function contentOf(response: Response): Promise<string> {
  const body = (await response.json()) as { choices: Array<{ message: { content: string } }> };
  return body.choices[0]!.message.content;
}

async function events(response: Response): Promise<Array<{ event?: string; data: unknown }>> {
  const result: Array<{ event?: string; data: unknown }> = [];
  for await (const event of readSse(response.body!)) result.push({ ...event, data: JSON.parse(event.data) as unknown });
  return result;
}

describe('scenario validation', () => {
  it('rejects a malformed scenario, saying where', async () => {
    expect(() => parseScenario({ models: { m: [{ content: 1 }] } })).toThrow(/models\.m\.0\.content/);
    expect(() => parseScenario({ models: { m: [{ content: 'x', fault: { kind: 'explode' } }] } })).toThrow(/fault/);
    expect(() => parseScenario({ models: { m: [{ content: 'x', chunkSize: 0 }] } })).toThrow(/chunkSize/);
    expect(() => parseScenario({ models: {}, extra: true })).toThrow(/Invalid scenario/);
    await expect(startScriptedServer({ scenario: { models: { m: [{ contnet: 'typo' }] } } as unknown as Scenario })).rejects.toThrow(
      /Invalid scenario/,
    );
  });

  it.each(readdirSync(SCENARIOS_DIR).filter((name) => name.endsWith('.json')))('example %s is valid', (name) => {
    expect(() => parseScenario(JSON.parse(readFileSync(`${SCENARIOS_DIR}${name}`, 'utf8')))).not.toThrow();
  });
});

describe('scripted answers', () => {
  it('serves responses in order, matches `when` on the last user message, and repeats `repeat` ones', async () => {
    expect(await contentOf(await ask('m', 'hello'))).toBe('first');
    expect(await contentOf(await ask('m', 'what is the weather?'))).toBe('Sunny.');
    expect(await contentOf(await ask('m', 'hello'))).toBe('second');
    expect(await contentOf(await ask('m', 'weather again'))).toBe('second');
  });

  it('answers 500 naming the model when nothing matches', async () => {
    const response = await ask('unknown-model', 'hi');
    expect(response.status).toBe(500);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toContain('no response left for model "unknown-model"');
    expect(body.error.message).toContain('"m", "tools"');
  });

  it('streams like vLLM: role chunk, reasoning_content, content, tool calls in pieces by index, finish, usage, [DONE]', async () => {
    const response = await ask('tools', 'go', { stream: true, stream_options: { include_usage: true } });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const raw = await response.clone().text();
    expect(raw.trimEnd().endsWith('data: [DONE]')).toBe(true);
    const chunks = (await events(response)).map((event) => event.data as { choices: Array<Record<string, unknown>>; usage?: unknown });
    const deltas = chunks.filter((chunk) => chunk.choices.length > 0).map((chunk) => chunk.choices[0]!.delta);
    expect(deltas[0]).toEqual({ role: 'assistant', content: '' });
    expect(deltas[1]).toEqual({ reasoning_content: 'thin' });
    expect(deltas[3]).toEqual({ content: 'ab' });
    expect(deltas[4]).toEqual({ tool_calls: [{ index: 0, id: 'call_0', type: 'function', function: { name: 'search', arguments: '' } }] });
    const argumentPieces = deltas.slice(5, -1).map((delta) => (delta as { tool_calls: Array<{ index: number; function: { arguments: string } }> }).tool_calls[0]!);
    expect(argumentPieces.every((piece) => piece.index === 0 && piece.function.arguments.length <= 4)).toBe(true);
    expect(argumentPieces.map((piece) => piece.function.arguments).join('')).toBe('{"model":"search-1","q":"abcdefgh"}');
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 4,
        total_tokens: 14,
        prompt_tokens_details: { cached_tokens: 2 },
        completion_tokens_details: { reasoning_tokens: 1 },
        cost: 0.5,
      },
    });
  });

  it('sends no usage chunk unless include_usage was asked for', async () => {
    const chunks = (await events(await ask('tools', 'go', { stream: true }))).map((event) => event.data as { usage?: unknown });
    expect(chunks.some((chunk) => chunk.usage !== undefined)).toBe(false);
  });

  it('streams Anthropic events with usage split into input and cache reads', async () => {
    const response = await chat({ model: 'tools', messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], stream: true }, '/v1/messages');
    const sequence = await events(response);
    expect([...new Set(sequence.map((event) => event.event))]).toEqual([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(sequence.every((event) => (event.data as { type: string }).type === event.event)).toBe(true);
    expect(sequence[0]!.data).toMatchObject({ message: { model: 'tools', usage: { input_tokens: 8, cache_read_input_tokens: 2 } } });
    expect(sequence.at(-2)!.data).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 4 } });
  });

  it('streams the Responses API: each output item added, its pieces, done, then response.completed with usage; no [DONE]', async () => {
    const response = await chat({ model: 'tools', input: [{ role: 'system', content: 'x' }, { role: 'user', content: 'go' }], stream: true }, '/v1/responses');
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect((await response.clone().text()).includes('[DONE]')).toBe(false);
    const sequence = await events(response);
    expect(sequence.every((event) => (event.data as { type: string }).type === event.event)).toBe(true);
    expect(sequence.map((event) => (event.data as { sequence_number: number }).sequence_number)).toEqual(sequence.map((_, i) => i));
    const types = sequence.map((event) => event.event);
    expect([...new Set(types)]).toEqual([
      'response.created',
      'response.output_item.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.output_item.done',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.completed',
    ]);
    const data = (type: string) => sequence.filter((event) => event.event === type).map((event) => event.data as Record<string, unknown>);
    expect(data('response.output_text.delta').map((event) => event.delta).join('')).toBe('ab');
    expect(data('response.function_call_arguments.delta').map((event) => event.delta).join('')).toBe('{"model":"search-1","q":"abcdefgh"}');
    expect(data('response.output_item.added')[2]).toMatchObject({ output_index: 2, item: { type: 'function_call', call_id: 'call_0', name: 'search', arguments: '' } });
    expect(data('response.completed')[0]).toMatchObject({
      response: {
        status: 'completed',
        model: 'tools',
        output: [{ type: 'reasoning' }, { type: 'message', content: [{ text: 'ab' }] }, { type: 'function_call', call_id: 'call_0', name: 'search' }],
        usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 2 }, output_tokens: 4, output_tokens_details: { reasoning_tokens: 1 }, total_tokens: 14 },
      },
    });
  });

  it('answers the Responses API in one piece unless asked to stream, and as incomplete when the script ends on its length', async () => {
    server.reset({ models: { m: [{ content: 'cut sh', finishReason: 'length' }], n: [{ when: 'second', content: 'yes' }] } });
    const whole = (await (await chat({ model: 'm', input: 'anything' }, '/v1/responses')).json()) as Record<string, unknown>;
    expect(whole).toMatchObject({ object: 'response', status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [{ type: 'message', content: [{ type: 'output_text', text: 'cut sh' }] }] });
    // `when` reads the last user item of the input.
    const input = [{ role: 'user', content: 'first' }, { type: 'function_call_output', call_id: 'c', output: 'o' }, { role: 'user', content: 'the second' }];
    expect(await (await chat({ model: 'n', input }, '/v1/responses')).json()).toMatchObject({ status: 'completed', output: [{ content: [{ text: 'yes' }] }] });
  });

  it('lists the scenario models', async () => {
    const response = await fetch(`${server.url}/v1/models`);
    expect(await response.json()).toMatchObject({ object: 'list', data: [{ id: 'm' }, { id: 'tools' }] });
  });

  it('answers 404 for unknown routes', async () => {
    expect((await fetch(`${server.url}/v2/nothing`)).status).toBe(404);
  });
});

describe('faults', () => {
  it('fails the next `times` requests with the status, then serves the response', async () => {
    server.reset({ models: { m: [{ content: 'ok', fault: { kind: 'status', status: 429, retryAfterSeconds: 2, times: 2 } }] } });
    const first = await ask('m', 'x');
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('2');
    expect((await ask('m', 'x')).status).toBe(429);
    expect(await contentOf(await ask('m', 'x'))).toBe('ok');
    expect((await ask('m', 'x')).status).toBe(500);
  });

  it('shapes error bodies per dialect', async () => {
    server.setFault({ kind: 'status', status: 529 });
    const anthropic = await chat({ model: 'm', messages: [] }, '/v1/messages');
    expect(await anthropic.json()).toEqual({ type: 'error', error: { type: 'overloaded_error', message: 'Scripted fault: HTTP 529.' } });
    const openai = await ask('m', 'x');
    expect(await openai.json()).toMatchObject({ error: { message: 'Scripted fault: HTTP 529.', code: 529 } });
    const responses = await chat({ model: 'm', input: 'x' }, '/v1/responses');
    expect(await responses.json()).toMatchObject({ error: { message: 'Scripted fault: HTTP 529.', code: 529 } });
  });

  it('ends a Responses stream with an error event, and floods its text, summary or arguments', async () => {
    server.reset({ models: { m: [{ content: 'abcdefgh', chunkSize: 2, fault: { kind: 'stream_error', afterChunks: 3, status: 429 } }] } });
    const failed = await events(await chat({ model: 'm', input: 'x', stream: true }, '/v1/responses'));
    expect(failed).toHaveLength(4);
    expect(failed.at(-1)).toEqual({ event: 'error', data: { type: 'error', code: 429, message: 'Scripted stream error: HTTP 429.', param: null } });
    for (const [field, type] of [
      ['content', 'response.output_text.delta'],
      ['reasoning', 'response.reasoning_summary_text.delta'],
      ['tool_arguments', 'response.function_call_arguments.delta'],
    ] as const) {
      server.reset({ models: { m: [{ content: 'end', fault: { kind: 'flood', field, chars: 100_000, pieceChars: 30_000 } }] } });
      const flooded = await events(await chat({ model: 'm', input: 'x', stream: true }, '/v1/responses'));
      const filler = flooded.filter((event) => event.event === type).map((event) => (event.data as { delta: string }).delta);
      expect(filler.join('').length, field).toBeGreaterThanOrEqual(100_000);
      expect(flooded.at(-1)!.event, field).toBe('response.completed');
    }
  });

  it('takes server-wide faults through the admin endpoint, without recording admin calls', async () => {
    const set = await fetch(`${server.url}/__admin/fault`, { method: 'POST', body: JSON.stringify({ kind: 'status', status: 503, times: 1 }) });
    expect(set.status).toBe(200);
    expect((await ask('m', 'hello')).status).toBe(503);
    expect(await contentOf(await ask('m', 'hello'))).toBe('first');
    const bad = await fetch(`${server.url}/__admin/fault`, { method: 'POST', body: JSON.stringify({ kind: 'status' }) });
    expect(bad.status).toBe(400);
    expect(server.requests.map((request) => request.path)).toEqual(['/v1/chat/completions', '/v1/chat/completions']);
  });

  it('sends a malformed chunk, or drops the socket, after the given number of chunks', async () => {
    server.reset({ models: { m: [{ content: 'abcdefgh', chunkSize: 2, fault: { kind: 'malformed_chunk', afterChunks: 2 } }] } });
    const text = await (await ask('m', 'x', { stream: true })).text();
    expect(text.split('\n\n').filter(Boolean)).toHaveLength(3);
    expect(text.endsWith('data: {not json\n\n')).toBe(true);

    server.reset({ models: { m: [{ content: 'abcdefgh', chunkSize: 2, fault: { kind: 'drop_mid_stream', afterChunks: 2 } }] } });
    const dropped = await ask('m', 'x', { stream: true });
    await expect(dropped.text()).rejects.toThrow();
  });

  it('redirects to a location (307 unless told), with CORS headers, and leaves the response unconsumed', async () => {
    server.reset({ models: { m: [{ content: 'ok' }] }, fault: { kind: 'redirect', location: 'http://127.0.0.1:9/elsewhere', times: 1 } });
    const first = await fetch(`${server.url}/v1/messages`, { method: 'POST', redirect: 'manual', body: JSON.stringify({ model: 'm', messages: [] }) });
    expect(first.status).toBe(307);
    expect(first.headers.get('location')).toBe('http://127.0.0.1:9/elsewhere');
    server.reset({ models: { m: [{ content: 'ok', fault: { kind: 'redirect', location: 'http://127.0.0.1:9/x', status: 308 } }] } });
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      redirect: 'manual',
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('http://127.0.0.1:9/x');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await contentOf(await ask('m', 'x'))).toBe('ok');
  });

  it('floods a streamed field with filler as fast as the client reads, then finishes the stream', async () => {
    server.reset({ models: { m: [{ content: 'end', fault: { kind: 'flood', field: 'reasoning', chars: 200_000, pieceChars: 30_000 } }] } });
    let reasoning = 0;
    let content = '';
    for (const event of await events(await ask('m', 'x', { stream: true }))) {
      const delta = (event.data as { choices: Array<{ delta: { reasoning_content?: string; content?: string } }> }).choices[0]?.delta;
      reasoning += delta?.reasoning_content?.length ?? 0;
      content += delta?.content ?? '';
    }
    expect(reasoning).toBe(200_000);
    expect(content).toBe('end');

    server.reset({ models: { m: [{ content: '', fault: { kind: 'flood', field: 'tool_arguments', chars: 1000, pieceChars: 300 } }] } });
    const args = (await events(await ask('m', 'x', { stream: true })))
      .flatMap((event) => (event.data as { choices: Array<{ delta: { tool_calls?: Array<{ function: { arguments?: string } }> } }> }).choices[0]?.delta.tool_calls ?? [])
      .map((call) => call.function.arguments ?? '')
      .join('');
    expect(args === 'x'.repeat(1000)).toBe(true);
  });

  it('floods a whole JSON answer or an error body, and sends a response’s own headers', async () => {
    server.reset({ models: { m: [{ content: 'c', headers: { 'x-hostile': 'yes' }, fault: { kind: 'flood', field: 'content', chars: 100_000 } }] } });
    const whole = await ask('m', 'x');
    expect(whole.headers.get('x-hostile')).toBe('yes');
    expect(await contentOf(whole) === 'x'.repeat(100_000)).toBe(true);

    server.reset({ models: { m: [{ content: 'c' }] }, fault: { kind: 'flood', field: 'error_body', chars: 50_000, times: 1 } });
    const failed = await chat({ model: 'm', messages: [] }, '/v1/messages');
    expect(failed.status).toBe(500);
    expect(((await failed.json()) as { error: { message: string } }).error.message === 'x'.repeat(50_000)).toBe(true);
    // An error is not an answer: the response is still there.
    expect(await contentOf(await ask('m', 'x'))).toBe('c');
  });

  it('stops a flood when the client hangs up', async () => {
    server.reset({ models: { m: [{ content: 'c', fault: { kind: 'flood', field: 'content', chars: 500_000_000 } }] } });
    const response = await ask('m', 'x', { stream: true });
    const reader = response.body!.getReader();
    let bytes = 0;
    while (bytes < 1_000_000) bytes += (await reader.read()).value?.length ?? 0;
    await reader.cancel();
    // The server is free for the next request straight away.
    server.reset(SCENARIO);
    expect(await contentOf(await ask('m', 'hello'))).toBe('first');
  });

  it('answers preflights with CORS headers, and omits them under no_cors', async () => {
    const preflight = await fetch(`${server.url}/v1/messages`, { method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')).toBe(
      'authorization, content-type, x-api-key, anthropic-version, anthropic-dangerous-direct-browser-access',
    );
    expect((await ask('m', 'hello')).headers.get('access-control-allow-origin')).toBe('*');

    server.setFault({ kind: 'no_cors' });
    expect((await fetch(`${server.url}/v1/messages`, { method: 'OPTIONS' })).headers.get('access-control-allow-origin')).toBeNull();
    const response = await ask('m', 'hello');
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('recording and lifecycle', () => {
  it('records method, path, headers, parsed body and time; reset empties the same array', async () => {
    const before = Date.now();
    await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hello' }] }),
    });
    const requests = server.requests;
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { authorization: 'Bearer k', 'content-type': 'application/json' },
      body: { model: 'm', messages: [{ role: 'user', content: 'hello' }] },
    });
    expect(requests[0]!.time).toBeGreaterThanOrEqual(before);
    server.reset();
    expect(requests).toHaveLength(0);
  });

  it('closes promptly despite a hung request and an idle keep-alive connection', async () => {
    const own = await startScriptedServer({ scenario: { models: {}, fault: { kind: 'hang' } } });
    const hung = fetch(`${own.url}/v1/models`).catch((error: unknown) => error);
    await new Promise<void>((resolve) => {
      const agentRequest = httpRequest(`${own.url}/__admin/requests`, { agent: new Agent({ keepAlive: true }) }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      agentRequest.end();
    });
    const started = Date.now();
    await own.close();
    expect(Date.now() - started).toBeLessThan(500);
    expect(await hung).toBeInstanceOf(Error);
  });

  it('runs as `orchestra serve-scripted`, a process that prints its URL and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../orchestra.ts', import.meta.url)), 'serve-scripted', '--scenario', `${SCENARIOS_DIR}cli-paper-prompt.json`, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let output = '';
        child.stdout.on('data', (data: Buffer) => {
          output += data.toString();
          const line = output.split('\n')[0];
          if (output.includes('\n') && line) resolve(line.trim());
        });
        child.stderr.on('data', (data: Buffer) => reject(new Error(data.toString())));
        child.on('exit', (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const models = (await (await fetch(`${url}/v1/models`)).json()) as { data: Array<{ id: string }> };
      expect(models.data.map((model) => model.id)).toContain('nvidia/Nemotron-Orchestrator-8B');
    } finally {
      child.kill('SIGTERM');
    }
    const code = await new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode);
      else child.on('exit', resolve);
    });
    expect(code).toBe(0);
  }, 20_000);
});
