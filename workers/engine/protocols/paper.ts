// The paper protocol (HLE / FRAMES style): three tools whose single argument `model` picks an
// expert by alias; a fresh two-message prompt each turn with the context rebuilt from what was
// gathered; only the first valid call of a turn runs; `answer` ends the run.
// The strings below are interface constants: Orchestrator-8B was trained on them.

import type { PythonRunner } from '../../../tools/python/types.ts';
import type { Retriever, SourceFailure } from '../../../tools/search/retriever.ts';
import { needsUserAction, toErrorInfo } from '../../backends/errors.ts';
import type { PaperToolName } from '../config.ts';
import type { ModelPrice } from '../pricing.ts';
import {
  RunStop,
  stoppedMessage,
  type OrchestratorOutput,
  type Protocol,
  type ProtocolSession,
  type TurnContext,
  type TurnOutcome,
} from '../protocol.ts';
import { budgetTokens, keepLastTokens } from '../tokens.ts';
import type { ChatMessage, ChatModel, ToolSchema } from '../types.ts';
import { formatSeconds } from '../format.ts';

export interface PaperExpert {
  alias: string;
  tool: PaperToolName;
  model: ChatModel;
  description: string;
  /** Shown in the orchestrator's price table; undefined prints as "unknown". */
  price?: ModelPrice;
  latencySeconds?: number;
  temperature?: number;
  maxTokens?: number;
  /** `boxed`: "put your final answer within \boxed{}" (Qwen family); `tagged`: `<answer>` tags. */
  answerStyle: 'boxed' | 'tagged';
}

export interface PaperBudgets {
  /** Estimated tokens of the orchestrator's rebuilt context (problem included). */
  contextTokens: number;
  /** Estimated tokens of code runs kept (the most recent ones). */
  codeContextTokens: number;
  /** Each document is cut to this many characters in the orchestrator's context. */
  documentChars: number;
  /** Estimated tokens of the context an expert is given. */
  expertContextTokens: number;
}

export interface PaperProtocolOptions {
  experts: PaperExpert[];
  retriever: Retriever;
  /** What one retrieval costs when known (0 for the local corpus); undefined charges the pricing
   * table's per-call rate for a paid search, as an estimate. */
  searchUsdPerCall?: number;
  python: PythonRunner;
  variant: 'hle' | 'frames';
  searchTopK: number;
  codeTimeoutMs: number;
  budgets: PaperBudgets;
}

export const PAPER_SYSTEM_PROMPT = 'You are good at using tools.';
export const PRICE_TABLE_HEADER =
  'Model | price per million input tokens | price per million output tokens | average latency';

const TOOL_ORDER: PaperToolName[] = ['enhance_reasoning', 'answer', 'search'];

const TOOL_TEXT: Record<PaperToolName, { description: string; verb: string; beforeTable: string }> = {
  enhance_reasoning: {
    description:
      'tool to enhance answer model reasoning. analyze the problem, write code, execute it and return intermidiate results that will help solve the problem',
    verb: 'reason',
    beforeTable: ' \n',
  },
  answer: {
    description: 'give the final answer. Not allowed to call if documents is empty.',
    verb: 'answer',
    beforeTable: ' The table below shows the pricing and latency of each model:\n',
  },
  search: {
    description: 'Search for missing information',
    verb: 'search for missing information',
    beforeTable: ' The table below shows the pricing and latency:\n',
  },
};

const SEARCH_INSTRUCTION =
  'Instead of directly answering the question, please write a query to search for a piece of relevant and missing information. The query should be a few key words about the information to search or a short sentence. Wrap the query within <query> and </query>.';
const CODE_INSTRUCTION =
  'Instead of directly answering the question, please write additional python code that will give intermidiate results after execution. Wrap the code within ```python and ```. The code should be self-contained with all the import and initialization.';
export const BOXED_SYSTEM_PROMPT = 'Please reason step by step, and put your final answer within \\boxed{}.';
export const TAGGED_ANSWER_INSTRUCTION =
  'Wrap the thinking process and explanation between <think> and </think> and wrap only the exact answer without any explanation within <answer> and </answer>.';

/** The reference drops queries shorter than this and cuts longer ones at 390 characters. */
const MIN_QUERY_CHARS = 5;
const MAX_QUERY_CHARS = 390;

function formatPrice(perMillion: number | undefined): string {
  return perMillion === undefined ? 'unknown' : `$${Number(perMillion.toFixed(6))}`;
}

/** What the orchestrator reads about one alias. */
export interface AliasDescription {
  alias: string;
  description: string;
  price?: ModelPrice;
  latencySeconds?: number;
}

/** The choices as a Python list, one sentence per alias, and the price-and-latency table. */
export function describeAliases(aliases: readonly AliasDescription[]): { choices: string; sentences: string; table: string } {
  const rows = aliases.map((a) => {
    const latency = a.latencySeconds === undefined ? 'unknown' : `${Math.round(a.latencySeconds)}s`;
    return `${a.alias} | ${formatPrice(a.price?.inputPerM)} | ${formatPrice(a.price?.outputPerM)} | ${latency}`;
  });
  return {
    choices: `[${aliases.map((a) => `'${a.alias}'`).join(', ')}]`,
    sentences: aliases.map((a) => `${a.alias} ${a.description}`.trim()).join(' '),
    table: [PRICE_TABLE_HEADER, ...rows].join('\n'),
  };
}

/** The `model` parameter's description: choices, one sentence per alias, the price table. */
export function describeModelParameter(tool: PaperToolName, experts: readonly AliasDescription[]): string {
  const text = TOOL_TEXT[tool];
  const { choices, sentences, table } = describeAliases(experts);
  return `The model used to ${text.verb}. Choices: ${choices}. ${sentences}${text.beforeTable}${table}`;
}

/** The paper's three tools, generated from the user's alias → model mapping and prices. */
export function buildPaperTools(experts: readonly PaperExpert[]): ToolSchema[] {
  return TOOL_ORDER.flatMap((tool) => {
    const mine = experts.filter((e) => e.tool === tool);
    if (mine.length === 0) return [];
    return [
      {
        name: tool,
        description: TOOL_TEXT[tool].description,
        parameters: {
          properties: { model: { description: describeModelParameter(tool, mine), type: 'string' } },
          required: ['model'],
          title: 'parameters',
          type: 'object',
        },
      },
    ];
  });
}

export interface GatheredDocument {
  id: string;
  title: string;
  text: string;
}

export interface CodeRun {
  code: string;
  output: string;
}

/** The orchestrator's `{context}`: documents, then code runs, keeping the most recent within budget. */
export function buildOrchestratorContext(
  problem: string,
  documents: readonly GatheredDocument[],
  codeRuns: readonly CodeRun[],
  budgets: Pick<PaperBudgets, 'contextTokens' | 'codeContextTokens' | 'documentChars'>,
): string {
  const documentText = documents
    .map((doc, i) => `Doc ${i + 1}: ${doc.text.slice(0, budgets.documentChars)}\n\n`)
    .join('');
  const codeText = renderCodeRuns(codeRuns);
  let code = keepLastTokens(codeText, budgets.codeContextTokens);
  if (code && !code.startsWith('```')) code = '```\n' + code;
  const room = budgets.contextTokens - budgetTokens(problem);
  if (budgetTokens(codeText) >= room) return code;
  const body = code
    ? keepLastTokens(`${documentText}\npython code and execution outputs:\n${code}`, room)
    : keepLastTokens(documentText, room);
  return documentText ? `Documents:\n${body}` : body;
}

function renderCodeRuns(codeRuns: readonly CodeRun[]): string {
  return codeRuns.map((run) => `\`\`\`python\n${run.code}\n\`\`\`\n\n\`\`\`output\n${run.output}\n\`\`\`\n\n`).join('');
}

/** What an expert sees before its instruction: full documents and code runs within its budget. */
function buildExpertContext(
  task: string,
  documents: readonly GatheredDocument[],
  codeRuns: readonly CodeRun[],
  budgets: PaperBudgets,
): string {
  const documentText = documents.map((doc, i) => `Doc ${i + 1}: ${doc.text}\n\n`).join('');
  let code = keepLastTokens(renderCodeRuns(codeRuns), budgets.codeContextTokens);
  if (code && !code.startsWith('```')) code = '```\n' + code;
  const body = keepLastTokens(documentText + code, budgets.expertContextTokens - budgetTokens(task));
  return (documentText ? `Documents:\n${body}` : body).trim();
}

function withContext(context: string, text: string): string {
  return context ? `${context}\n\n${text}` : text;
}

function stripThink(text: string): string {
  const end = text.lastIndexOf('</think>');
  return end === -1 ? text : text.slice(end + '</think>'.length);
}

export function extractQuery(text: string): string {
  const afterOpen = stripThink(text).split('<query>').pop() ?? '';
  return (afterOpen.split('</query>')[0] ?? '').trim();
}

export function extractCode(text: string): string {
  const afterOpen = stripThink(text).split('```python').pop() ?? '';
  return (afterOpen.split('```')[0] ?? '').trim();
}

/** The content of the last `\boxed{…}`, braces balanced; '' when there is none. */
export function extractBoxed(text: string): string {
  const start = text.lastIndexOf('\\boxed{');
  if (start === -1) return '';
  let depth = 0;
  const open = start + '\\boxed{'.length;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      if (depth === 0) return text.slice(open, i).trim();
      depth--;
    }
  }
  return text.slice(open).trim();
}

export function extractTaggedAnswer(text: string): string {
  const visible = stripThink(text);
  if (!visible.includes('<answer>')) return visible.trim();
  const afterOpen = visible.split('<answer>').pop() ?? '';
  return (afterOpen.split('</answer>')[0] ?? '').trim();
}

interface ToolRunResult {
  ok: boolean;
  content: string;
  detail?: unknown;
  error?: string;
}

export function createPaperProtocol(options: PaperProtocolOptions): Protocol {
  const aliasesByTool = new Map<string, PaperExpert[]>();
  for (const expert of options.experts) {
    aliasesByTool.set(expert.tool, [...(aliasesByTool.get(expert.tool) ?? []), expert]);
  }
  const allTools = buildPaperTools(options.experts);
  const toolsWithoutSearch = allTools.filter((t) => t.name !== 'search');

  return {
    name: 'paper',
    start(task: string, instruction: string | null): ProtocolSession {
      const problem = instruction ? `${task}\n\n${instruction}` : task;
      const documents: GatheredDocument[] = [];
      const codeRuns: CodeRun[] = [];

      const tools = () =>
        options.variant === 'frames' && documents.length > 0 ? toolsWithoutSearch : allTools;

      const askExpert = (expert: PaperExpert, callId: string, context: TurnContext, messages: ChatMessage[]) =>
        context.callModel({
          callId,
          kind: 'expert',
          alias: expert.alias,
          model: expert.model,
          request: { messages, temperature: expert.temperature, maxTokens: expert.maxTokens },
        });

      const expertMessages = (instructionText: string): ChatMessage[] => [
        {
          role: 'user',
          content: withContext(
            buildExpertContext(task, documents, codeRuns, options.budgets),
            `Question: ${task}\n${instructionText}`,
          ),
        },
      ];

      const runSearch = async (expert: PaperExpert, callId: string, context: TurnContext): Promise<ToolRunResult> => {
        const completion = await askExpert(expert, callId, context, expertMessages(SEARCH_INSTRUCTION));
        const query = extractQuery(completion.content);
        if (query.length < MIN_QUERY_CHARS) {
          return { ok: false, content: 'The expert wrote no usable query.', detail: { query, raw: completion.content } };
        }
        const started = performance.now();
        const problems: SourceFailure[] = [];
        const found = await context.race(
          options.retriever.search(query.slice(0, MAX_QUERY_CHARS), {
            limit: options.searchTopK,
            signal: context.signal,
            onSourceFailure: (failure) => problems.push(failure),
          }),
        );
        context.chargeSearch({ callId, latencyMs: performance.now() - started, usd: options.searchUsdPerCall });
        // The reference appends results in reverse rank order, skipping documents it already has.
        let added = 0;
        for (const doc of [...found].reverse()) {
          if (documents.some((d) => d.id === doc.id)) continue;
          documents.push({ id: doc.id, title: doc.title, text: doc.text });
          added++;
        }
        const titles = found.map((d) => d.title).join('; ');
        const notSearched = problems.map((p) => `\nNot searched: ${p.source}: ${p.message}`).join('');
        return {
          ok: true,
          content: `Query: ${query}\nFound ${found.length} document(s), ${added} new: ${titles || 'none'}${notSearched}`,
          detail: { query, documents: found, added, ...(problems.length > 0 ? { problems } : {}) },
        };
      };

      const runCode = async (expert: PaperExpert, callId: string, context: TurnContext): Promise<ToolRunResult> => {
        const completion = await askExpert(expert, callId, context, expertMessages(CODE_INSTRUCTION));
        const code = extractCode(completion.content);
        if (!code) return { ok: false, content: 'The expert wrote no Python code.', detail: { code, raw: completion.content } };
        const result = await context.race(options.python.run(code, { timeoutMs: options.codeTimeoutMs, signal: context.signal }));
        context.chargeCode({ callId, seconds: result.durationMs / 1000, latencyMs: result.durationMs });
        if (result.aborted) throw new RunStop('aborted');
        // As in the reference, only stdout is kept, and a run with no output adds nothing.
        if (result.stdout.trim()) codeRuns.push({ code, output: result.stdout });
        const error = result.timedOut
          ? `Python timed out after ${formatSeconds(options.codeTimeoutMs)} and was stopped`
          : (result.error ?? undefined);
        return {
          ok: !result.timedOut && !result.error,
          content: result.stdout || error || '(no output)',
          detail: { code, ...result },
          error,
        };
      };

      const runAnswer = async (expert: PaperExpert, callId: string, context: TurnContext): Promise<ToolRunResult> => {
        const base = withContext(buildExpertContext(task, documents, codeRuns, options.budgets), `Problem:\n${task}`);
        const messages: ChatMessage[] =
          expert.answerStyle === 'boxed'
            ? [
                { role: 'system', content: BOXED_SYSTEM_PROMPT },
                { role: 'user', content: base },
              ]
            : [{ role: 'user', content: `${base}\n${TAGGED_ANSWER_INSTRUCTION}` }];
        const completion = await askExpert(expert, callId, context, messages);
        const answer =
          expert.answerStyle === 'boxed' ? extractBoxed(completion.content) : extractTaggedAnswer(completion.content);
        return { ok: true, content: answer, detail: { answer, raw: completion.content } };
      };

      const runners: Record<PaperToolName, typeof runSearch> = {
        search: runSearch,
        enhance_reasoning: runCode,
        answer: runAnswer,
      };

      return {
        name: 'paper',
        tools,
        messages: () => [
          { role: 'system', content: PAPER_SYSTEM_PROMPT },
          {
            role: 'user',
            content: `Problem: ${problem}\n\n${buildOrchestratorContext(problem, documents, codeRuns, options.budgets)}\n\nChoose an appropriate tool.`,
          },
        ],
        async handleOutput(output: OrchestratorOutput, context: TurnContext): Promise<TurnOutcome> {
          const offered = tools().map((t) => t.name);
          const problems = output.rejected.map((r) => r.reason);
          let chosen: { callId: string; tool: PaperToolName; expert: PaperExpert; args: Record<string, unknown> } | null =
            null;
          for (const call of output.calls) {
            if (!offered.includes(call.name)) {
              problems.push(`"${call.name}" is not one of the offered tools (${offered.join(', ')})`);
              continue;
            }
            const experts = aliasesByTool.get(call.name) ?? [];
            const expert = experts.find((e) => e.alias === call.arguments.model);
            if (!expert) {
              problems.push(
                `${call.name}: "model" must be one of ${experts.map((e) => e.alias).join(', ')}; got ${JSON.stringify(call.arguments.model ?? null)}`,
              );
              continue;
            }
            // Only the first valid call of a turn runs, as in the reference loop.
            chosen = { callId: call.id, tool: call.name as PaperToolName, expert, args: call.arguments };
            break;
          }
          if (!chosen) {
            return { kind: 'continue', validCall: false, invalidReason: problems.join('; ') || 'the output had no tool call' };
          }

          const { callId, tool, expert } = chosen;
          context.assertBudget();
          context.emit({
            type: 'tool_call',
            step: context.step,
            callId,
            name: tool,
            arguments: chosen.args,
            alias: expert.alias,
            model: expert.model.model,
            offered,
          });
          const started = performance.now();
          const finish = (result: ToolRunResult) =>
            context.emit({
              type: 'tool_result',
              step: context.step,
              callId,
              name: tool,
              ok: result.ok,
              content: result.content,
              detail: result.detail,
              error: result.error,
              latencyMs: Math.round(performance.now() - started),
            });
          try {
            const result = await runners[tool](expert, callId, context);
            finish(result);
            if (tool === 'answer') return { kind: 'done', stopReason: 'answered', answer: result.content };
            return { kind: 'continue', validCall: true };
          } catch (error) {
            if (error instanceof RunStop || context.signal.aborted) {
              finish({ ok: false, content: stoppedMessage(error), error: stoppedMessage(error) });
              throw error;
            }
            const info = toErrorInfo(error);
            finish({ ok: false, content: `The ${tool} call failed: ${info.message}`, error: info.message });
            if (needsUserAction(error)) throw error;
            // A transient failure (after the backend's own retries) costs the turn, as in the reference.
            return { kind: 'continue', validCall: true };
          }
        },
      };
    },
  };
}
