import { describe, expect, it } from 'vitest';
import { buildPaperTools } from '../../engine/protocols/paper.ts';
import { buildGgufBody } from './ggufModel.ts';
import { toolCallGrammar } from './toolCallGrammar.ts';

describe('toolCallGrammar', () => {
  it('makes the paper protocol’s model argument an enum of the aliases in its price table', () => {
    const tools = buildPaperTools([
      { alias: 'search-1', tool: 'search', model: 'm1', description: 'finds.', latencySeconds: 1, price: { inputPerM: 0, outputPerM: 0 } },
      { alias: 'answer-1', tool: 'answer', model: 'm2', description: 'answers.', latencySeconds: 1, price: { inputPerM: 0, outputPerM: 0 } },
    ] as never);
    const grammar = toolCallGrammar(tools, { thinking: 'none' })!;
    expect(grammar).toContain('root ::= "<tool_call>\\n" (call-0 | call-1) "\\n</tool_call>"');
    expect(grammar).not.toContain('think');
    // The paper's tool order: answer before search.
    expect(grammar).toContain('args-0-0 ::= "\\"answer-1\\""');
    expect(grammar).toContain('args-1-0 ::= "\\"search-1\\""');
    expect(grammar).toContain('call-1 ::= "{\\"name\\": \\"search\\", \\"arguments\\": " args-1 "}"');
  });

  it('follows enums, strings, integers, booleans and arrays; required properties in order', () => {
    const grammar = toolCallGrammar([
      {
        name: 'book',
        description: '',
        parameters: {
          type: 'object',
          properties: {
            city: { type: 'string', enum: ['Paris', 'Lima'] },
            nights: { type: 'integer' },
            tags: { type: 'array', items: { type: 'string' } },
            late: { type: 'boolean' },
            note: { type: 'string' },
          },
          required: ['city', 'nights', 'tags', 'late'],
        },
      },
    ], { maxStringChars: 20 })!;
    expect(grammar).toContain('args-0 ::= "{" "\\"city\\": " args-0-0 ", \\"nights\\": " args-0-1 ", \\"tags\\": " args-0-2 ", \\"late\\": " args-0-3 "}"');
    expect(grammar).toContain('args-0-0 ::= "\\"Paris\\"" | "\\"Lima\\""');
    expect(grammar).toContain('args-0-2-item ::= "\\"" [^"\\\\\\x00-\\x1f]{0,20} "\\""');
    expect(grammar).not.toContain('note');
  });

  it('leaves the thinking before the call free: a <think> block of any tokens but </think>, matched by token', () => {
    const grammar = toolCallGrammar([{ name: 'lookup', description: '', parameters: { type: 'object', properties: {}, required: [] } }])!;
    expect(grammar.split('\n')).toEqual([
      'args-0 ::= "{" "}"',
      'call-0 ::= "{\\"name\\": \\"lookup\\", \\"arguments\\": " args-0 "}"',
      'root ::= (think "\\n"{0,2})? "<tool_call>\\n" (call-0) "\\n</tool_call>"',
      'think ::= <think> (!</think>)* </think>',
    ]);
  });

  it('gives no grammar for a schema it does not understand, or for no tools', () => {
    expect(toolCallGrammar([])).toBeUndefined();
    expect(toolCallGrammar([{ name: 'x', description: '', parameters: { type: 'object', properties: { a: { anyOf: [] } }, required: ['a'] } }])).toBeUndefined();
  });

  it('goes into the request only when asked, from the tools listed in the system prompt', () => {
    const tools = [{ name: 'lookup', description: 'd', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }];
    const system = `Route.\n\n# Tools\n\n<tools>\n${JSON.stringify({ type: 'function', function: tools[0] })}\n</tools>`;
    const request = { messages: [{ role: 'system' as const, content: system }, { role: 'user' as const, content: 'hi' }], enableThinking: false, maxTokens: 5 };
    expect(buildGgufBody({ constrainToolCalls: false }, request).grammar).toBeUndefined();
    const body = buildGgufBody({ constrainToolCalls: true }, request);
    expect(body.grammar).toContain('"{\\"name\\": \\"lookup\\", \\"arguments\\": "');
    expect(body).toMatchObject({ max_tokens: 5, chat_template_kwargs: { enable_thinking: false }, cache_prompt: true });
    // Thinking off: the template wrote an empty block, so the grammar offers none.
    expect(body.grammar).not.toContain('think');
    const { enableThinking: _off, ...thinking } = request;
    expect(buildGgufBody({ constrainToolCalls: true }, thinking).grammar).toContain('think ::= <think> (!</think>)* </think>');
  });
});
