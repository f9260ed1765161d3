// Qwen3 / Hermes prompt formatting, byte for byte as the chat template of Qwen3-8B
// (tokenizer_config.json on Hugging Face) renders it through transformers' apply_chat_template.
// Rendering is a single pass that collects parts and joins once, so it stays linear.

import type { ChatMessage, ToolCallRequest, ToolSchema } from '../types.ts';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const NON_ASCII = /[\u007f-\uffff]/g;

function pythonString(text: string, ensureAscii: boolean): string {
  // With ensure_ascii, Python escapes everything outside space…tilde as lowercase \uXXXX (a pair
  // for characters beyond the BMP, as JS holds them), lone surrogates included.
  if (ensureAscii) return JSON.stringify(text).replace(NON_ASCII, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
  // JSON.stringify escapes exactly what Python's json.dumps(ensure_ascii=False) escapes
  // (", \, \b \f \n \r \t, other controls as lowercase \u00XX), except lone surrogates,
  // which Python writes out raw.
  if (!LONE_SURROGATE.test(text)) return JSON.stringify(text);
  let out = '"';
  for (const char of text) {
    out += char.length === 1 && char >= '\ud800' && char <= '\udfff' ? char : JSON.stringify(char).slice(1, -1);
  }
  return `${out}"`;
}

function pythonNumber(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Infinity';
  if (value === -Infinity) return '-Infinity';
  // Python prints an int in full (no exponent); JS switches to exponents from 1e21.
  if (Number.isInteger(value)) return Math.abs(value) < 1e21 ? String(value) : BigInt(value).toString();
  // Same shortest digits as Python's float repr; Python switches to an exponent below 1e-4
  // (JS below 1e-6) and writes it with at least two digits.
  if (Math.abs(value) >= 1e-4) return String(value);
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const power = Number(exponent);
  return `${mantissa}e${power < 0 ? '-' : '+'}${String(Math.abs(power)).padStart(2, '0')}`;
}

function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function writePython(value: unknown, out: string[], ensureAscii: boolean): void {
  if (value === null || isOmitted(value)) {
    out.push('null');
  } else if (typeof value === 'string') {
    out.push(pythonString(value, ensureAscii));
  } else if (typeof value === 'number') {
    out.push(pythonNumber(value));
  } else if (typeof value === 'bigint') {
    out.push(value.toString());
  } else if (typeof value === 'boolean') {
    out.push(value ? 'true' : 'false');
  } else if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(', ');
      writePython(value[i], out, ensureAscii);
    }
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      if (isOmitted(item)) continue;
      if (!first) out.push(', ');
      first = false;
      out.push(pythonString(key, ensureAscii), ': ');
      writePython(item, out, ensureAscii);
    }
    out.push('}');
  }
}

/** JSON as Python's `json.dumps(x, ensure_ascii=False)` writes it (or, with `ensureAscii`, as
 * plain `json.dumps(x)` does), which is what the `tojson`
 * filter of transformers' chat templating produces: `", "` and `": "` separators, key order
 * kept, non-ASCII kept. Integers print without `.0` (JS cannot tell 1.0 from 1); other
 * numbers as Python's float repr. Values JSON
 * cannot hold (undefined, functions) are dropped from objects and become null elsewhere, as
 * JSON.stringify does. Object keys that look like array indices come first: JS orders them so. */
export function toPythonJson(value: unknown, options: { ensureAscii?: boolean } = {}): string {
  const out: string[] = [];
  writePython(value, out, options.ensureAscii ?? false);
  return out.join('');
}

const TOOLS_HEADER =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>';
const TOOLS_FOOTER =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments ' +
  'within <tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>';

/** Tool lists are rendered every turn, usually the same array each time; they are treated as
 * immutable, so a rendering is kept per array. */
const renderedToolBlocks = new WeakMap<readonly ToolSchema[], string>();

/** The tool listing Qwen3's template writes into the system turn. */
export function renderToolsBlock(tools: ToolSchema[]): string {
  let block = renderedToolBlocks.get(tools);
  if (block === undefined) {
    block = buildToolsBlock(tools);
    renderedToolBlocks.set(tools, block);
  }
  return block;
}

function buildToolsBlock(tools: readonly ToolSchema[]): string {
  const parts = [TOOLS_HEADER];
  for (const tool of tools) {
    parts.push(
      '\n',
      toPythonJson({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }),
    );
  }
  parts.push(TOOLS_FOOTER);
  return parts.join('');
}

/** The system turn's content when tools are listed: the system text, a blank line, the tools.
 * With no tools the template adds nothing. */
export function systemWithTools(system: string | undefined, tools: ToolSchema[]): string {
  if (tools.length === 0) return system ?? '';
  const block = renderToolsBlock(tools);
  return system === undefined ? block : `${system}\n\n${block}`;
}

/** One call as the template writes it. The template pastes the name between quotes unescaped;
 * here it is JSON-escaped, which is the same text for any sane tool name. */
export function formatToolCall(call: { name: string; arguments: Record<string, unknown> }): string {
  return `<tool_call>\n${toPythonJson({ name: call.name, arguments: call.arguments })}\n</tool_call>`;
}

export function wrapToolResponse(content: string): string {
  return `<tool_response>\n${content}\n</tool_response>`;
}

function stripLeadingNewlines(text: string): string {
  let start = 0;
  while (text.charCodeAt(start) === 10) start++;
  return start === 0 ? text : text.slice(start);
}

function stripTrailingNewlines(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** The template's split of an assistant turn at `</think>`: the reasoning is what lies between
 * the last `<think>` before the first `</think>` and that `</think>`; the content is what follows
 * the last `</think>`. */
function splitAssistantContent(content: string): { reasoning: string; content: string } {
  const firstClose = content.indexOf('</think>');
  if (firstClose < 0) return { reasoning: '', content };
  const beforeClose = stripTrailingNewlines(content.slice(0, firstClose));
  const lastOpen = beforeClose.lastIndexOf('<think>');
  const reasoning = stripLeadingNewlines(lastOpen < 0 ? beforeClose : beforeClose.slice(lastOpen + '<think>'.length));
  const lastClose = content.lastIndexOf('</think>');
  return { reasoning, content: stripLeadingNewlines(content.slice(lastClose + '</think>'.length)) };
}

/** A conversation's calls are rendered again every turn; like tool lists, they are treated as
 * immutable, so a rendering is kept per call. */
const renderedCalls = new WeakMap<ToolCallRequest, string>();

/** The calls of an assistant turn as the template appends them after its content. */
function renderToolCalls(content: string, calls: ToolCallRequest[]): string {
  const parts: string[] = [];
  calls.forEach((call, index) => {
    if (index > 0 || content !== '') parts.push('\n');
    let text = renderedCalls.get(call);
    if (text === undefined) {
      text = formatToolCall(call);
      renderedCalls.set(call, text);
    }
    parts.push(text);
  });
  return parts.join('');
}

function isToolResponseTurn(content: string): boolean {
  return content.startsWith('<tool_response>') && content.endsWith('</tool_response>');
}

/** The same conversation with only system/user/assistant turns, for backends that take no
 * `tools` and have no tool role (web-llm with Qwen3): tools go into the system turn, calls into
 * the assistant text, and each run of tool results into one user turn. Rendering the result
 * with no tools gives exactly the text the template renders from the original. */
export function toPromptMessages(messages: ChatMessage[], tools: ToolSchema[]): ChatMessage[] {
  const result: ChatMessage[] = [];
  const first = messages[0];
  if (tools.length > 0) {
    const system = first?.role === 'system' ? first.content : undefined;
    result.push({ role: 'system', content: systemWithTools(system, tools) });
  }
  let pendingResponses: string[] = [];
  const flushResponses = (): void => {
    if (pendingResponses.length === 0) return;
    result.push({ role: 'user', content: pendingResponses.join('\n') });
    pendingResponses = [];
  };
  messages.forEach((message, index) => {
    if (index === 0 && message.role === 'system' && tools.length > 0) return;
    if (message.role === 'tool') {
      pendingResponses.push(wrapToolResponse(message.content));
      return;
    }
    flushResponses();
    if (message.role === 'assistant') {
      const calls = message.toolCalls ?? [];
      const visibleContent = splitAssistantContent(message.content).content;
      result.push({ role: 'assistant', content: message.content + renderToolCalls(visibleContent, calls) });
    } else {
      result.push({ role: message.role, content: message.content });
    }
  });
  flushResponses();
  return result;
}

/** A template turn: what a runtime that applies Qwen3's chat template itself takes. */
export interface TemplateTurn {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** The conversation as a runtime that applies Qwen3's chat template itself takes it (web-llm,
 * llama.cpp): the tools rendered into the system turn, and each tool result a user turn wrapped
 * in `<tool_response>`, which is what the template writes for a tool turn. */
export function toTemplateTurns(messages: ChatMessage[], tools: ToolSchema[]): TemplateTurn[] {
  return toPromptMessages(messages, tools).map((message): TemplateTurn => {
    switch (message.role) {
      case 'system':
      case 'user':
      case 'assistant':
        return { role: message.role, content: message.content };
      case 'tool':
        return { role: 'user', content: wrapToolResponse(message.content) };
    }
  });
}

export interface RenderOptions {
  /** End with the opening of an assistant turn (default true: the text a model is asked to continue). */
  addGenerationPrompt?: boolean;
  /** `false` closes an empty think block in the generation prompt, as Qwen3's template does. */
  enableThinking?: boolean;
}

/** The whole prompt as Qwen3-8B's chat template renders it. Like the template, assistant turns
 * keep their `<think>` reasoning only after the last real user query (earlier turns are shown
 * without it), and the last assistant turn there always gets a think block, empty if need be. */
export function renderChatML(messages: ChatMessage[], tools: ToolSchema[], options: RenderOptions = {}): string {
  const parts: string[] = [];
  const first = messages[0];
  if (tools.length > 0) {
    const system = first?.role === 'system' ? first.content : undefined;
    parts.push('<|im_start|>system\n', systemWithTools(system, tools), '<|im_end|>\n');
  } else if (first?.role === 'system') {
    parts.push('<|im_start|>system\n', first.content, '<|im_end|>\n');
  }

  let lastQueryIndex = messages.length - 1;
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === 'user' && !isToolResponseTurn(message.content)) {
      lastQueryIndex = index;
      break;
    }
  }

  messages.forEach((message, index) => {
    const isLast = index === messages.length - 1;
    switch (message.role) {
      case 'system':
        if (index > 0) parts.push('<|im_start|>system\n', message.content, '<|im_end|>\n');
        break;
      case 'user':
        parts.push('<|im_start|>user\n', message.content, '<|im_end|>\n');
        break;
      case 'assistant': {
        const { reasoning, content } = splitAssistantContent(message.content);
        if (index > lastQueryIndex && (isLast || reasoning !== '')) {
          const thought = stripLeadingNewlines(stripTrailingNewlines(reasoning));
          parts.push('<|im_start|>assistant\n<think>\n', thought, '\n</think>\n\n', stripLeadingNewlines(content));
        } else {
          parts.push('<|im_start|>assistant\n', content);
        }
        parts.push(renderToolCalls(content, message.toolCalls ?? []), '<|im_end|>\n');
        break;
      }
      case 'tool':
        if (messages[index - 1]?.role !== 'tool') parts.push('<|im_start|>user');
        parts.push('\n<tool_response>\n', message.content, '\n</tool_response>');
        if (isLast || messages[index + 1]?.role !== 'tool') parts.push('<|im_end|>\n');
        break;
    }
  });

  if (options.addGenerationPrompt ?? true) {
    parts.push('<|im_start|>assistant\n');
    if (options.enableThinking === false) parts.push('<think>\n\n</think>\n\n');
  }
  return parts.join('');
}
