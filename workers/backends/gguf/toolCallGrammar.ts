// A GBNF grammar (llama.cpp's grammar language) that makes a reply one Qwen3 tool call to one of
// the offered tools: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, optionally after
// a `<think>` block that stays free: only the call is constrained, so a finished reply is always
// one valid call, and the reasoning before it is the model's own, bounded by the request's token
// budget alone. (llama.cpp's lazy grammars, which wait for a trigger such as `<tool_call>`, are not
// used: llama-server's chat endpoint sets `grammar_lazy` and its triggers from the chat template,
// overriding a request's, and a lazy grammar would let a reply end without any call.)
// Arguments follow each tool's schema as far as this builder understands it
// (objects of strings, enums, numbers, integers, booleans and arrays of those); a schema it does
// not understand yields no grammar, so a request is never constrained to the wrong shape.
//
// The paper protocol's `model` parameter is a plain string whose description lists the aliases
// (the price table the model reads, protocols/paper.ts); the grammar makes it an enum of them,
// so even a model with random weights calls a tool that exists with an alias that exists.

import { readAliasTable } from '../../engine/protocols/paper.ts';
import type { JsonSchema, ToolSchema } from '../../engine/types.ts';

export interface ToolCallGrammarOptions {
  /** Longest free string argument, in characters (default 400). Keeps a model that never closes
   * its quote from spending the whole token budget inside one string. */
  maxStringChars?: number;
  /** 'free' (the default): the reply may open with a `<think>` block, unconstrained until the
   * model writes `</think>` (only the request's token budget bounds it). 'none': no block, as when
   * the chat template already wrote an empty one (thinking turned off). */
  thinking?: 'free' | 'none';
}

/** The thinking block, matched by token: Qwen3's `<think>` token, any tokens but `</think>`, then
 * `</think>` (GBNF's token syntax: the model's vocabulary must have both as single tokens, as
 * Qwen3's has). By token rather than by text, so the block costs one cheap check per token (every
 * token the model samples inside it is accepted at once, never resampled), and a model only
 * enters it with the `<think>` token itself, never by spelling the tag out character by character
 * (which a model with random weights would often do). */
const THINK_RULE = 'think ::= <think> (!</think>)* </think>';

const literal = (text: string) => JSON.stringify(text);
/** The GBNF literal of a JSON value's text (JSON.stringify twice: once for JSON, once for GBNF). */
const jsonLiteral = (value: unknown) => literal(JSON.stringify(value));

class Rules {
  private readonly rules = new Map<string, string>();
  add(name: string, body: string): string {
    this.rules.set(name, body);
    return name;
  }
  text(): string {
    return [...this.rules].map(([name, body]) => `${name} ::= ${body}`).join('\n');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The rule for one value, or undefined when the schema is beyond this builder. */
function valueRule(schema: unknown, rules: Rules, name: string, options: Required<ToolCallGrammarOptions>): string | undefined {
  if (!isRecord(schema)) return undefined;
  const choices = Array.isArray(schema.enum)
    ? schema.enum
    : schema.const !== undefined
      ? [schema.const]
      : typeof schema.description === 'string' && schema.type === 'string'
        ? readAliasTable(schema.description).map((row) => row.alias)
        : [];
  if (choices.length > 0) return rules.add(name, choices.map(jsonLiteral).join(' | '));
  switch (schema.type) {
    case 'string':
      return rules.add(name, `"\\"" [^"\\\\\\x00-\\x1f]{0,${options.maxStringChars}} "\\""`);
    case 'integer':
      return rules.add(name, '"-"? [0-9]{1,12}');
    case 'number':
      return rules.add(name, '"-"? [0-9]{1,12} ("." [0-9]{1,6})?');
    case 'boolean':
      return rules.add(name, '"true" | "false"');
    case 'array': {
      const item = valueRule(schema.items, rules, `${name}-item`, options);
      if (!item) return undefined;
      return rules.add(name, `"[" (${item} (", " ${item}){0,15})? "]"`);
    }
    case 'object':
      return objectRule(schema, rules, name, options);
    default:
      return undefined;
  }
}

/** An object with its required properties, in the schema's order (optional ones left out). */
function objectRule(schema: JsonSchema, rules: Rules, name: string, options: Required<ToolCallGrammarOptions>): string | undefined {
  const properties = isRecord(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((key): key is string => typeof key === 'string') : [];
  const parts: string[] = [];
  for (const [index, key] of required.entries()) {
    const value = valueRule(properties[key], rules, `${name}-${index}`, options);
    if (!value) return undefined;
    parts.push(`${literal(`${index === 0 ? '' : ', '}${JSON.stringify(key)}: `)} ${value}`);
  }
  return rules.add(name, ['"{"', ...parts, '"}"'].join(' '));
}

/** The grammar, or undefined when there is no tool or a tool's schema is beyond this builder. */
export function toolCallGrammar(tools: readonly ToolSchema[], options: ToolCallGrammarOptions = {}): string | undefined {
  if (tools.length === 0) return undefined;
  const settings: Required<ToolCallGrammarOptions> = { maxStringChars: 400, thinking: 'free', ...options };
  const rules = new Rules();
  const calls: string[] = [];
  for (const [index, tool] of tools.entries()) {
    const args = objectRule(tool.parameters, rules, `args-${index}`, settings);
    if (!args) return undefined;
    calls.push(rules.add(`call-${index}`, `${literal(`{"name": ${JSON.stringify(tool.name)}, "arguments": `)} ${args} "}"`));
  }
  // After the block, the blank line Qwen3 writes before its call.
  const think = settings.thinking === 'free' ? '(think "\\n"{0,2})? ' : '';
  rules.add('root', `${think}"<tool_call>\\n" (${calls.join(' | ')}) "\\n</tool_call>"`);
  return settings.thinking === 'free' ? `${rules.text()}\n${THINK_RULE}` : rules.text();
}
