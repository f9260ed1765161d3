// The scripted demo: an orchestrator and experts that are scripts, not models, behind the engine's
// ChatModel interface, so the real engine drives them over the real corpus search and the real
// Python sandbox. The orchestrator writes the paper protocol's calls as Orchestrator-8B writes them
// (`<think>…</think>` then a `<tool_call>`), deciding by the hand-written rules of route.ts; each
// expert reads the documents it is shown (reading.ts) and writes a query, Python or an answer in
// the form its prompt asks for. Loaded by the orchestrator worker only when a config uses it.

import { BackendError } from '../../engine/errors.ts';
import type { ChatCompletion, ChatDelta, ChatMessage, ChatModel, ChatRequest, ToolSchema } from '../../engine/types.ts';
import { documentsInPrompt, readDocuments, readQuestion, type CodeCheck, type Reading } from './reading.ts';
import { DEMO_NOTICE } from './notice.ts';
import { chooseAlias, describePreference, readMenu, readPreference, wantsCode } from './route.ts';

export const DEMO_PROVIDER = 'demo';
export const DEMO_ORCHESTRATOR_MODEL = 'scripted-orchestrator';

/** How long each scripted model takes to reply, so the route's time shows, in the order of the
 * latencies demo.json states: the strong model is slow, the small open one on a modest machine
 * slow too (it is the cheap one, not the fast one), the fast hosted model quickest. */
const REPLY_MS: Record<string, number> = {
  [DEMO_ORCHESTRATOR_MODEL]: 250,
  'scripted-strong': 1600,
  'scripted-small': 1100,
  'scripted-mid': 700,
  'scripted-fast': 150,
};
const DEFAULT_REPLY_MS = 700;
const STREAM_CHUNK_CHARS = 24;
/** Turns after which the orchestrator answers with what it has, whatever the documents say. */
const MAX_SEARCHES = 12;

export function isDemoOrchestrator(modelId: string): boolean {
  return modelId === DEMO_ORCHESTRATOR_MODEL;
}

/** A scripted model by id: the orchestrator, or an expert (any other id). */
export function createDemoModel(modelId: string, options: { replyMs?: number } = {}): ChatModel {
  const replyMs = options.replyMs ?? REPLY_MS[modelId] ?? DEFAULT_REPLY_MS;
  // One model per run (prepareRun creates them per run), so the count is this run's.
  const searches: SearchState = { count: 0, lastQuery: null };
  const write = isDemoOrchestrator(modelId) ? (request: ChatRequest) => orchestratorTurn(request, searches) : expertReply;
  return {
    model: modelId,
    label: `${DEMO_PROVIDER}:${modelId} (${DEMO_NOTICE.toLowerCase()})`,
    // Tools come rendered into the system prompt and the call goes back as text, as a local
    // Orchestrator-8B does; a request that carries tools is read the same way.
    supportsServerTools: false,
    notice: DEMO_NOTICE,
    async complete(request, onDelta) {
      const started = performance.now();
      const text = write(request);
      const firstToken = await stream(text, replyMs, request.signal, onDelta);
      // No usage: no tokenizer counted these tokens, so the ledger estimates them and marks the
      // cost as an estimate (≈), priced as the model each script stands in for.
      return {
        content: text,
        finishReason: 'stop',
        model: modelId,
        latencyMs: Math.round(performance.now() - started),
        timeToFirstTokenMs: Math.round(firstToken - started),
      } satisfies ChatCompletion;
    },
  };
}

/** Streams `text` as content deltas over about `totalMs`; resolves with the first delta's time. */
async function stream(text: string, totalMs: number, signal: AbortSignal | undefined, onDelta?: (delta: ChatDelta) => void): Promise<number> {
  const chunks = text.match(new RegExp(`[\\s\\S]{1,${STREAM_CHUNK_CHARS}}`, 'g')) ?? [''];
  const pause = totalMs / chunks.length;
  let first = 0;
  for (const chunk of chunks) {
    await sleep(pause, signal);
    first ||= performance.now();
    onDelta?.({ type: 'content', text: chunk });
  }
  return first;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new BackendError({ code: 'aborted', provider: DEMO_PROVIDER, message: 'The scripted demo was stopped.' }));
    };
    if (signal?.aborted) return aborted();
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

function userText(messages: readonly ChatMessage[]): string {
  return messages.filter((m) => m.role === 'user').map((m) => m.content).join('\n');
}

/** The tools listed in a Qwen3 system prompt (one JSON object a line inside `<tools>`), or the
 * request's own. */
export function toolsOf(request: ChatRequest): ToolSchema[] {
  if (request.tools) return request.tools;
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  const block = /<tools>\n([\s\S]*?)\n<\/tools>/.exec(system)?.[1] ?? '';
  return block.split('\n').flatMap((line) => {
    try {
      const fn = (JSON.parse(line) as { function?: ToolSchema }).function;
      return fn && typeof fn.name === 'string' ? [fn] : [];
    } catch {
      return [];
    }
  });
}

/** The task in the orchestrator's prompt: the first line after "Problem: ". */
function problemOf(prompt: string): { task: string; problem: string } {
  const afterLabel = prompt.slice(prompt.indexOf('Problem: ') + 'Problem: '.length);
  const task = afterLabel.split('\n')[0] ?? '';
  const end = afterLabel.search(/\n\n(?:Documents:\n|\npython code and execution outputs:|Choose an appropriate tool\.)/);
  return { task, problem: end === -1 ? afterLabel : afterLabel.slice(0, end) };
}

function call(name: string, alias: string): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: { model: alias } })}\n</tool_call>`;
}

/** One orchestrator turn: what the documents still lack decides the tool, the rules the alias. */
interface SearchState {
  count: number;
  /** What the last search was for: asking for it again means the corpus did not have it. */
  lastQuery: string | null;
}

function orchestratorTurn(request: ChatRequest, searches: SearchState): string {
  const prompt = userText(request.messages);
  const { task, problem } = problemOf(prompt);
  const preference = readPreference(problem);
  const menu = readMenu(toolsOf(request));
  const documents = documentsInPrompt(prompt);
  const codeRan = prompt.includes('\n```output\n');
  const question = readQuestion(task);
  const thoughts = [describePreference(preference)];
  let reading: Reading | null = null;
  if (!question) thoughts.push('This is not one of the sample questions my script can read; I search once, then hand it to an answer expert.');
  else {
    reading = readDocuments(question, documents);
    if (reading.kind === 'search') thoughts.push(`I still need ${reading.why}.`);
    else if (reading.kind === 'answer') thoughts.push(`The documents answer it: ${reading.steps.join(' ')}`);
    else thoughts.push(`The documents do not help: ${reading.why}.`);
  }

  const query = reading?.kind === 'search' ? reading.query : null;
  const repeated = query !== null && query === searches.lastQuery;
  if (repeated) thoughts.push('The last search did not find it, so I answer with what I have.');
  const needsSearch = searches.count < MAX_SEARCHES && !repeated && (question ? query !== null : searches.count === 0);
  const search = needsSearch ? chooseAlias('search', menu.get('search') ?? [], preference) : null;
  if (search) {
    searches.count++;
    searches.lastQuery = query;
  }
  if (search) return `<think>\n${thoughts.join(' ')} I search with ${search.why}.\n</think>\n\n${call('search', search.alias)}`;
  if (needsSearch) thoughts.push('Search is avoided, so I answer with what I have.');

  const toolNames = [...menu.keys()];
  if (!codeRan && reading?.kind === 'answer' && wantsCode(preference, toolNames)) {
    const coder = chooseAlias('enhance_reasoning', menu.get('enhance_reasoning') ?? [], preference);
    if (coder) return `<think>\n${thoughts.join(' ')} Before answering I check the figures with Python, using ${coder.why}.\n</think>\n\n${call('enhance_reasoning', coder.alias)}`;
  }
  const answer = chooseAlias('answer', menu.get('answer') ?? [], preference, true);
  if (!answer) {
    return `<think>\n${thoughts.join(' ')} The menu has no answer tool.\n</think>\n\nThe scripted demo follows the paper protocol only (search, enhance_reasoning, answer): choose "Paper" under Task.`;
  }
  return `<think>\n${thoughts.join(' ')} I hand the answer to ${answer.why}.\n</think>\n\n${call('answer', answer.alias)}`;
}

/** The question an expert is asked: the last line that is a sample question, else the line after
 * "Question: " (search, code) or "Problem:" (answer). */
function expertQuestion(prompt: string): string {
  const lines = prompt.split('\n');
  const sample = lines.findLast((line) => readQuestion(line) !== null);
  if (sample !== undefined) return sample;
  const asked = /(?:^|\n)Question: ([^\n]*)/.exec(prompt)?.[1];
  return asked ?? /(?:^|\n)Problem:\n([^\n]*)/.exec(prompt)?.[1] ?? '';
}

/** An expert's reply: a query, Python or an answer, as its prompt asks. */
function expertReply(request: ChatRequest): string {
  const prompt = userText(request.messages);
  const question = readQuestion(expertQuestion(prompt));
  const reading = question ? readDocuments(question, documentsInPrompt(prompt)) : null;
  if (prompt.includes('Wrap the query within <query> and </query>')) {
    const query = reading?.kind === 'search' ? reading.query : expertQuestion(prompt).slice(0, 200);
    return `The documents do not yet give ${reading?.kind === 'search' ? reading.why : 'the answer'}.\n<query>${query}</query>`;
  }
  if (prompt.includes('Wrap the code within ```python and ```')) {
    if (reading?.kind !== 'answer') return '```python\nprint("The documents do not give the figures to check yet.")\n```';
    return `I recompute the answer from the figures in the documents.\n\`\`\`python\n${checkCode(reading.check)}\`\`\``;
  }
  const boxed = request.messages.some((m) => m.role === 'system' && m.content.includes('\\boxed{}'));
  const { answer, reasoning } =
    reading?.kind === 'answer'
      ? { answer: reading.answer, reasoning: reading.steps.join(' ') }
      : { answer: 'unknown', reasoning: reading ? `The documents do not answer it: ${reading.kind === 'not-found' ? reading.why : 'a look-up is missing'}.` : 'The scripted demo reads only the built-in sample questions; a real model can take any task.' };
  return boxed ? `${reasoning}\n\nThe answer is \\boxed{${answer}}.` : `<think>\n${reasoning}\n</think>\n<answer>\n${answer}\n</answer>`;
}

/** A Python string literal: JSON's escapes are Python's too. */
function py(text: string): string {
  return JSON.stringify(text);
}

/** Self-contained Python that recomputes the answer from the figures read in the documents. */
export function checkCode(check: CodeCheck): string {
  if (check.kind === 'largest') {
    const areas = check.areas.map(({ name, area }) => `    ${py(name)}: ${Number.isFinite(area) ? area : 0},`).join('\n');
    const capitals = Object.entries(check.capitals).map(([name, capital]) => `    ${py(name)}: ${py(capital)},`).join('\n');
    return [
      '# Areas (km²) and capitals as the documents give them',
      `areas = {\n${areas}\n}`,
      `capitals = {\n${capitals}\n}`,
      'largest = max(areas, key=areas.get)',
      'print("largest neighbour by area:", largest, areas[largest])',
      'print("its capital:", capitals.get(largest))',
      '',
    ].join('\n');
  }
  return [
    `value = ${py(check.value)}`,
    `digits = value.replace(",", "")`,
    `print(${py(check.label)} + ":", value)`,
    'if digits.isdigit():',
    '    print("as a number:", int(digits))',
    '',
  ].join('\n');
}
