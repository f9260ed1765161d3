// The paper protocol (HLE / FRAMES style): three tools whose single argument `model` picks an
// expert by alias; a fresh two-message prompt each turn with the context rebuilt from what was
// gathered; only the first valid call of a turn runs; `answer` ends the run.
// The strings below are interface constants: Orchestrator-8B was trained and evaluated on them.
// Each variant lays the prompts out as its evaluation script does (NVlabs/ToolOrchestra,
// evaluation/eval_hle.py at upstream commit 74de70a, evaluation/eval_frames.py at 9d34d87);
// docs/protocol.md lists where we differ and why.

import type { PythonRunner } from '../ports.ts';
import type { Retriever, SourceFailure } from '../ports.ts';
import { needsUserAction, toErrorInfo } from '../errors.ts';
import type { PaperToolName } from '../config.ts';
import type { ModelPrice } from '../pricing.ts';
import {
  RunStop,
  type OrchestratorOutput,
  type Protocol,
  type ProtocolSession,
  type RecordedSteps,
  type TurnContext,
  type TurnOutcome,
} from '../protocol.ts';
import { budgetTokens, keepLastTokens } from '../tokens.ts';
import { isStop, withToolCall, type ToolOutcome } from '../toolStep.ts';
import type { AliasRow, ChatMessage, ChatModel, ToolSchema } from '../types.ts';
import { formatPerMillion, formatSeconds } from '../format.ts';
import { pythonLength, pythonPrefix, pythonStrip } from '../pythonStrings.ts';
import type { AnswerStyle, ExpertBudgets, PaperVariant } from './expertFamilies.ts';

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
  /** How an `answer` expert is asked for its answer (see expertFamilies.ts). */
  answerStyle: AnswerStyle;
  /** The part of the gathered material this expert is shown. */
  budgets: ExpertBudgets;
}

/** The orchestrator's rebuilt context. */
export interface PaperBudgets {
  /** Estimated tokens of the context: HLE counts the problem in, FRAMES does not (as each
   * evaluation does). */
  contextTokens: number;
  /** Estimated tokens of code runs kept (the most recent ones). */
  codeContextTokens: number;
  /** Each document is cut to this many characters. */
  documentChars: number;
  /** When the orchestrator runs in a context window: the most the context and the problem may
   * take together, whatever the variant counts. */
  windowTokens?: number;
}

export interface PaperProtocolOptions {
  experts: PaperExpert[];
  retriever: Retriever;
  /** What one retrieval costs when known (0 for the local corpus); undefined charges the pricing
   * table's per-call rate for a paid search, as an estimate. */
  searchUsdPerCall?: number;
  python: PythonRunner;
  variant: PaperVariant;
  searchTopK: number;
  codeTimeoutMs: number;
  budgets: PaperBudgets;
  /** A person is the orchestrator ("you are the orchestrator"): a `query` on search or `code` on
   * enhance_reasoning that they wrote is used instead of asking the alias's expert. Off for a
   * model, as in the reference, which ignores any argument but `model`. */
  writtenArguments?: boolean;
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

const CODE_INSTRUCTION =
  'Instead of directly answering the question, please write additional python code that will give intermidiate results after execution. Wrap the code within ```python and ```. The code should be self-contained with all the import and initialization.';
/** The answer instructions of eval_hle.py's call_tool, by expert family. */
const BOXED_SYSTEM_PROMPT = 'Please reason step by step, and put your final answer within \\boxed{}.';
const TAGGED_ANSWER_INSTRUCTION =
  '\nWrap the thinking process and explanation between <think> and </think> and wrap only the exact answer without any explanation within <answer> and </answer>.';
const THINK_HARD_ANSWER_INSTRUCTION =
  '\n\nTake a deep breath and think hard with high reasoning, wrap the thoughts within <think> and </think>, and wrap only the exact answer without any explanation within <answer> and </answer>.' +
  'Output using the following format:\n<think>\n...\n</think>\n<answer>\n...\n</answer>';
/** Between the documents and the code runs in the orchestrator's context. */
const CODE_SEPARATOR = '\npython code and execution outputs:\n';
/** Longer queries are cut to this many characters (both evaluations). */
const MAX_QUERY_CHARS = 390;

/** Where the two evaluations lay the prompts out differently. */
interface VariantLayout {
  /** One document in the orchestrator's context, already cut. */
  documentLine(index: number, text: string): string;
  /** FRAMES writes the code separator even when no code ran; HLE only when some did. */
  alwaysSeparator: boolean;
  /** HLE subtracts the problem's tokens from the context budget; FRAMES does not. */
  budgetIncludesProblem: boolean;
  /** The end of the orchestrator's user turn (HLE's has a stray quote). */
  turnEnd: string;
  searchInstruction: string;
  /** Queries shorter than this (characters) are not searched. */
  minQueryChars: number;
  /** The answer expert's user prompt before its style's instruction. */
  answerPrompt(context: string, problem: string): string;
}

const VARIANTS: Record<PaperVariant, VariantLayout> = {
  hle: {
    documentLine: (index, text) => `Doc ${index}: ${text} ...\n\n`,
    alwaysSeparator: false,
    budgetIncludesProblem: true,
    turnEnd: "\n\nChoose an appropriate tool.'",
    searchInstruction:
      'Instead of directly answering the question, please write a query to search for a piece of relevant and missing information. The query should be a few key words about the information to search or a short sentence. Wrap the query within <query> and </query>.',
    minQueryChars: 5,
    answerPrompt: (context, problem) => `${context}\n\nProblem:\n${problem}`,
  },
  frames: {
    documentLine: (index, text) => `Doc ${index}: ${text}\n\n`,
    alwaysSeparator: true,
    budgetIncludesProblem: false,
    turnEnd: '\n\nChoose an appropriate tool.',
    searchInstruction:
      'Instead of directly answering the question, please think hard and write a concise query to search Wikipedia. Wrap the query within <query> and </query>.',
    minQueryChars: 10,
    answerPrompt: (context, problem) => `${context}\n\n${problem}`,
  },
};

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
    return `${a.alias} | ${formatPerMillion(a.price?.inputPerM)} | ${formatPerMillion(a.price?.outputPerM)} | ${latency}`;
  });
  return {
    choices: `[${aliases.map((a) => `'${a.alias}'`).join(', ')}]`,
    sentences: aliases.map((a) => `${a.alias} ${a.description}`.trim()).join(' '),
    table: [PRICE_TABLE_HEADER, ...rows].join('\n'),
  };
}

/** The rows of the price-and-latency table in a `model` parameter's description (describeAliases):
 * what a person playing the orchestrator is shown, read from the very text the model reads. */
export function readAliasTable(description: string): AliasRow[] {
  const lines = description.split('\n');
  const header = lines.indexOf(PRICE_TABLE_HEADER);
  if (header < 0) return [];
  return lines.slice(header + 1).flatMap((line) => {
    const cells = line.split(' | ');
    if (cells.length !== 4) return [];
    const [alias, inputPerM, outputPerM, latency] = cells as [string, string, string, string];
    return [{ alias, inputPerM, outputPerM, latency }];
  });
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

/** Each code run as the reference lays it out: the code exactly as extracted, then its stdout. */
function renderCodeRuns(codeRuns: readonly CodeRun[]): string {
  return codeRuns.map((run) => `\`\`\`python\n${run.code}\n\`\`\`\n\n\`\`\`output\n${run.output}\n\`\`\`\n\n`).join('');
}

/** The most recent code runs within a budget; a cut that lands mid-run reopens a fence. */
function recentCodeRuns(codeRuns: readonly CodeRun[], budget: number): { whole: string; kept: string } {
  const whole = renderCodeRuns(codeRuns);
  const kept = keepLastTokens(whole, budget);
  return { whole, kept: kept && !kept.startsWith('```') ? '```\n' + kept : kept };
}

/** The orchestrator's `{context}`, as the variant's evaluation rebuilds it each turn: documents,
 * the code separator, code runs; the most recent material kept within budget. */
export function buildOrchestratorContext(
  problem: string,
  documents: readonly GatheredDocument[],
  codeRuns: readonly CodeRun[],
  budgets: PaperBudgets,
  variant: PaperVariant,
): string {
  const layout = VARIANTS[variant];
  const documentText = documents
    .map((doc, i) => layout.documentLine(i + 1, pythonPrefix(doc.text, budgets.documentChars)))
    .join('');
  const code = recentCodeRuns(codeRuns, budgets.codeContextTokens);
  const problemTokens = budgetTokens(problem);
  let room = layout.budgetIncludesProblem ? budgets.contextTokens - problemTokens : budgets.contextTokens;
  if (budgets.windowTokens !== undefined) room = Math.min(room, budgets.windowTokens - problemTokens);
  if (budgetTokens(code.whole) >= room) return code.kept;
  const body = keepLastTokens(
    code.kept || layout.alwaysSeparator ? `${documentText}${CODE_SEPARATOR}${code.kept}` : documentText,
    room,
  );
  return documentText ? `Documents:\n${body}` : body;
}

/** What an expert is shown before its instruction: documents and code runs within its own budget
 * (no separator between them, as in the reference). */
export function buildExpertContext(
  problem: string,
  documents: readonly GatheredDocument[],
  codeRuns: readonly CodeRun[],
  budgets: ExpertBudgets,
): string {
  const { documentChars } = budgets;
  const documentText = documents
    .map((doc, i) => `Doc ${i + 1}: ${documentChars === null ? doc.text : pythonPrefix(doc.text, documentChars)}\n\n`)
    .join('');
  const code = recentCodeRuns(codeRuns, budgets.codeContextTokens).kept;
  const body = keepLastTokens(documentText + code, budgets.contextTokens - budgetTokens(problem));
  return documentText ? `Documents:\n${body}` : body;
}

/** An expert's user prompt: its context, stripped as Python strips it, a blank line, the rest
 * (the blank line stays when the context is empty, as in the reference). */
function expertPrompt(context: string, rest: string): string {
  return `${pythonStrip(context)}\n\n${rest}`;
}

function stripThink(text: string): string {
  const end = text.lastIndexOf('</think>');
  return end === -1 ? text : text.slice(end + '</think>'.length);
}

/** The query as the reference reads it: after the last `<query>`, up to `</query>`, untouched
 * (the whole reply when there is no tag). */
export function extractQuery(text: string): string {
  return text.split('<query>').pop()!.split('</query>')[0]!;
}

/** The code as the reference reads it, byte for byte: after the last ```` ```python ````, up to
 * the next fence, leading and trailing newlines kept. This is what runs and what the context shows. */
export function extractCode(text: string): string {
  return text.split('```python').pop()!.split('```')[0]!;
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

/** An answer expert's request: its context and the problem as the variant lays them out, asked
 * for the answer in the expert's style (eval_hle.py / eval_frames.py, call_tool, tool `answer`). */
export function answerMessages(style: AnswerStyle, variant: PaperVariant, context: string, problem: string): ChatMessage[] {
  const prompt = VARIANTS[variant].answerPrompt(pythonStrip(context), problem);
  if (style === 'boxed') {
    return [
      { role: 'system', content: BOXED_SYSTEM_PROMPT },
      { role: 'user', content: prompt },
    ];
  }
  return [{ role: 'user', content: prompt + (style === 'think-hard' ? THINK_HARD_ANSWER_INSTRUCTION : TAGGED_ANSWER_INSTRUCTION) }];
}

/** The answer in a reply written in `style`. */
export function extractAnswer(style: AnswerStyle, text: string): string {
  return style === 'boxed' ? extractBoxed(text) : extractTaggedAnswer(text);
}

export function extractTaggedAnswer(text: string): string {
  const visible = stripThink(text);
  if (!visible.includes('<answer>')) return visible.trim();
  const afterOpen = visible.split('<answer>').pop() ?? '';
  return (afterOpen.split('</answer>')[0] ?? '').trim();
}

function isGatheredDocument(value: unknown): value is GatheredDocument {
  const doc = value as Partial<GatheredDocument> | null;
  return typeof doc?.id === 'string' && typeof doc.title === 'string' && typeof doc.text === 'string';
}

export function createPaperProtocol(options: PaperProtocolOptions): Protocol {
  const aliasesByTool = new Map<string, PaperExpert[]>();
  for (const expert of options.experts) {
    aliasesByTool.set(expert.tool, [...(aliasesByTool.get(expert.tool) ?? []), expert]);
  }
  const allTools = buildPaperTools(options.experts);
  const menus = { all: allTools, withoutSearch: allTools.filter((t) => t.name !== 'search') };
  return {
    name: 'paper',
    start: (task: string, instruction: string | null): ProtocolSession => new PaperSession(options, aliasesByTool, menus, task, instruction),
  };
}

/** The call a paper turn runs: its first valid one. */
interface ChosenCall {
  callId: string;
  tool: PaperToolName;
  expert: PaperExpert;
  args: Record<string, unknown>;
}

type PaperToolRunner = (expert: PaperExpert, callId: string, context: TurnContext, args: Record<string, unknown>) => Promise<ToolOutcome>;

/** One task under the paper protocol: what it gathered (documents, code runs) and its turns. */
class PaperSession implements ProtocolSession {
  readonly name = 'paper';
  private readonly problem: string;
  private readonly documents: GatheredDocument[] = [];
  private readonly codeRuns: CodeRun[] = [];
  private readonly layout: VariantLayout;
  private readonly runners: Record<PaperToolName, PaperToolRunner> = {
    search: (expert, callId, context, args) => this.runSearch(expert, callId, context, args),
    enhance_reasoning: (expert, callId, context, args) => this.runCode(expert, callId, context, args),
    answer: (expert, callId, context) => this.runAnswer(expert, callId, context),
  };

  constructor(
    private readonly options: PaperProtocolOptions,
    private readonly aliasesByTool: ReadonlyMap<string, PaperExpert[]>,
    private readonly menus: { all: ToolSchema[]; withoutSearch: ToolSchema[] },
    private readonly task: string,
    instruction: string | null,
  ) {
    this.problem = instruction ? `${task}\n\n${instruction}` : task;
    this.layout = VARIANTS[options.variant];
  }

  tools(): ToolSchema[] {
    return this.options.variant === 'frames' && this.documents.length > 0 ? this.menus.withoutSearch : this.menus.all;
  }

  messages(): ChatMessage[] {
    const { problem, documents, codeRuns, options } = this;
    return [
      { role: 'system', content: PAPER_SYSTEM_PROMPT },
      {
        role: 'user',
        content: `Problem: ${problem}\n\n${buildOrchestratorContext(problem, documents, codeRuns, options.budgets, options.variant)}${this.layout.turnEnd}`,
      },
    ];
  }

  // A fork's kept steps: the documents their searches found and the code runs they kept, as
  // recorded in their results (each cut to the trace's sizes, so a very long document comes
  // back shortened). The record is untrusted (an imported file): odd shapes are skipped.
  restore({ events }: RecordedSteps): void {
    for (const event of events) {
      if (event.type !== 'tool_result' || !event.ok || event.parentCallId !== undefined) continue;
      const detail = (event.detail ?? {}) as Record<string, unknown>;
      if (event.name === 'search' && Array.isArray(detail.documents)) {
        this.gather(detail.documents.filter(isGatheredDocument));
      } else if (event.name === 'enhance_reasoning' && typeof detail.code === 'string' && typeof detail.stdout === 'string') {
        this.keepCodeRun(detail.code, detail.stdout, detail.timedOut === true);
      }
    }
  }

  async handleOutput(output: OrchestratorOutput, context: TurnContext): Promise<TurnOutcome> {
    const offered = this.tools().map((t) => t.name);
    const problems = output.rejected.map((r) => r.reason);
    const chosen = this.chooseCall(output, problems);
    if (!chosen) {
      return { kind: 'continue', validCall: false, invalidReason: problems.join('; ') || 'the output had no tool call' };
    }
    const { callId, tool, expert } = chosen;
    context.assertBudget();
    const call = { callId, name: tool, arguments: chosen.args, alias: expert.alias, model: expert.model.model, offered };
    return withToolCall(context, call, async (report): Promise<TurnOutcome> => {
      try {
        const result = report(await this.runners[tool](expert, callId, context, chosen.args));
        if (tool === 'answer') return { kind: 'done', stopReason: 'answered', answer: result.content };
        return { kind: 'continue', validCall: true };
      } catch (error) {
        if (isStop(error, context)) throw error;
        const info = toErrorInfo(error);
        report({ ok: false, content: `The ${tool} call failed: ${info.message}`, error: info.message });
        if (needsUserAction(error)) throw error;
        // A transient failure (after the backend's own retries) costs the turn, as in the reference.
        return { kind: 'continue', validCall: true };
      }
    });
  }

  /** The turn's first valid call, as in the reference loop; what is wrong with the calls before
   * it goes into `problems`. */
  private chooseCall(output: OrchestratorOutput, problems: string[]): ChosenCall | null {
    for (const call of output.calls) {
      // As in the reference, a call is checked against all the paper's tools, not only the
      // ones offered this turn (FRAMES stops listing `search`, but still runs it).
      const experts = this.aliasesByTool.get(call.name);
      if (!experts) {
        problems.push(`"${call.name}" is not one of the tools (${[...this.aliasesByTool.keys()].join(', ')})`);
        continue;
      }
      const expert = experts.find((e) => e.alias === call.arguments.model);
      if (!expert) {
        problems.push(
          `${call.name}: "model" must be one of ${experts.map((e) => e.alias).join(', ')}; got ${JSON.stringify(call.arguments.model ?? null)}`,
        );
        continue;
      }
      return { callId: call.id, tool: call.name as PaperToolName, expert, args: call.arguments };
    }
    return null;
  }

  /** Adds search results to the gathered documents as the reference does: in reverse rank
   * order, skipping texts it already has. Returns how many were new. */
  private gather(found: readonly GatheredDocument[]): number {
    let added = 0;
    for (const doc of [...found].reverse()) {
      if (this.documents.some((d) => d.text === doc.text)) continue;
      this.documents.push({ id: doc.id, title: doc.title, text: doc.text });
      added++;
    }
    return added;
  }

  /** As in the reference: only stdout is kept, read as Python's text mode reads a pipe
   * (universal newlines); a run with no output, or one that timed out, adds nothing. */
  private keepCodeRun(code: string, rawStdout: string, timedOut: boolean): void {
    const stdout = rawStdout.replace(/\r\n?/g, '\n');
    if (!timedOut && pythonStrip(stdout)) this.codeRuns.push({ code, output: stdout });
  }

  private askExpert(expert: PaperExpert, callId: string, context: TurnContext, messages: ChatMessage[]) {
    return context.callModel({
      callId,
      kind: 'expert',
      alias: expert.alias,
      model: expert.model,
      request: { messages, temperature: expert.temperature, maxTokens: expert.maxTokens },
    });
  }

  /** The expert's context, as it stands when the expert is called. */
  private contextFor(expert: PaperExpert): string {
    return buildExpertContext(this.task, this.documents, this.codeRuns, expert.budgets);
  }

  private instructed(expert: PaperExpert, instructionText: string): ChatMessage[] {
    return [{ role: 'user', content: expertPrompt(this.contextFor(expert), `Question: ${this.task}\n${instructionText}`) }];
  }

  /** What the person wrote in `field` themselves, when a person orchestrates (else null). */
  private written(args: Record<string, unknown>, field: 'query' | 'code'): string | null {
    const value = args[field];
    return this.options.writtenArguments && typeof value === 'string' && value.trim() ? value : null;
  }

  private async runSearch(expert: PaperExpert, callId: string, context: TurnContext, args: Record<string, unknown>): Promise<ToolOutcome> {
    const { options, layout } = this;
    const own = this.written(args, 'query');
    const raw = own ?? (await this.askExpert(expert, callId, context, this.instructed(expert, layout.searchInstruction))).content;
    const query = own ?? extractQuery(raw);
    if (pythonLength(query) < layout.minQueryChars) {
      return { ok: false, content: 'The expert wrote no usable query.', detail: { query, raw } };
    }
    const started = performance.now();
    const problems: SourceFailure[] = [];
    const found = await context.race(
      options.retriever.search(pythonPrefix(query, MAX_QUERY_CHARS), {
        limit: options.searchTopK,
        signal: context.signal,
        onSourceFailure: (failure) => problems.push(failure),
      }),
    );
    context.chargeSearch({ callId, latencyMs: performance.now() - started, usd: options.searchUsdPerCall });
    const added = this.gather(found);
    const titles = found.map((d) => d.title).join('; ');
    const notSearched = problems.map((p) => `\nNot searched: ${p.source}: ${p.message}`).join('');
    return {
      ok: true,
      content: `Query: ${query.trim()}\nFound ${found.length} document(s), ${added} new: ${titles || 'none'}${notSearched}`,
      detail: { query, documents: found, added, ...(problems.length > 0 ? { problems } : {}) },
    };
  }

  private async runCode(expert: PaperExpert, callId: string, context: TurnContext, args: Record<string, unknown>): Promise<ToolOutcome> {
    const { options } = this;
    const own = this.written(args, 'code');
    const raw = own ?? (await this.askExpert(expert, callId, context, this.instructed(expert, CODE_INSTRUCTION))).content;
    const code = own ?? extractCode(raw);
    if (!code) return { ok: false, content: 'The expert wrote no Python code.', detail: { code, raw } };
    const result = await context.race(options.python.run(code, { timeoutMs: options.codeTimeoutMs, signal: context.signal }));
    const startupMs = result.startupMs ?? 0;
    context.chargeCode({
      callId,
      seconds: result.durationMs / 1000,
      latencyMs: startupMs + result.durationMs,
      startup: { sandbox: 'Python', ms: startupMs },
    });
    if (result.aborted) throw new RunStop('aborted');
    this.keepCodeRun(code, result.stdout, result.timedOut);
    const error = result.timedOut
      ? `Python timed out after ${formatSeconds(options.codeTimeoutMs)} and was stopped`
      : (result.error ?? undefined);
    return {
      ok: !result.timedOut && !result.error,
      content: result.stdout || error || '(no output)',
      detail: { code, ...result },
      error,
    };
  }

  private async runAnswer(expert: PaperExpert, callId: string, context: TurnContext): Promise<ToolOutcome> {
    const messages = answerMessages(expert.answerStyle, this.options.variant, this.contextFor(expert), this.task);
    const completion = await this.askExpert(expert, callId, context, messages);
    const answer = extractAnswer(expert.answerStyle, completion.content);
    return { ok: true, content: answer, detail: { answer, raw: completion.content } };
  }
}
