// A GBNF grammar (llama.cpp's grammar language) that makes a reply one Qwen3 tool call to one of
// the offered tools: `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, optionally after
// a `<think>` block. Arguments follow each tool's schema as far as this builder understands it
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
  /** Longest reasoning before the call, in characters (default 0: no `<think>` block). */
  maxThinkingChars?: number;
}

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
  const settings: Required<ToolCallGrammarOptions> = { maxStringChars: 400, maxThinkingChars: 0, ...options };
  const rules = new Rules();
  const calls: string[] = [];
  for (const [index, tool] of tools.entries()) {
    const args = objectRule(tool.parameters, rules, `args-${index}`, settings);
    if (!args) return undefined;
    calls.push(rules.add(`call-${index}`, `${literal(`{"name": ${JSON.stringify(tool.name)}, "arguments": `)} ${args} "}"`));
  }
  const think = settings.maxThinkingChars > 0 ? `("<think>\\n" [^<]{0,${settings.maxThinkingChars}} "\\n</think>\\n\\n")? ` : '';
  rules.add('root', `${think}"<tool_call>\\n" (${calls.join(' | ')}) "\\n</tool_call>"`);
  return rules.text();
}
