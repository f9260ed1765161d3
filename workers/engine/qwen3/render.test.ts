import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSchema } from '../types.ts';
import {
  formatToolCall,
  renderChatML,
  renderToolsBlock,
  systemWithTools,
  toPromptMessages,
  toPythonJson,
  wrapToolResponse,
} from './render.ts';

// Expected strings below were written from the text of Qwen3-8B's chat template (and checked
// against it rendered by jinja2 with transformers' `tojson`, i.e. json.dumps(ensure_ascii=False)).

const searchTool: ToolSchema = {
  name: 'search',
  description: 'Search for missing information',
  parameters: {
    properties: {
      model: {
        description: "The model used to search. Choices: ['search-1', 'search-2'].\nModel | price\nsearch-1 | $1.25",
        type: 'string',
      },
    },
    required: ['model'],
    title: 'parameters',
    type: 'object',
  },
};

const weatherTool: ToolSchema = {
  name: 'get_weather',
  description: 'Météo actuelle — «current» weather',
  parameters: {
    type: 'object',
    properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 7 } },
    required: ['city'],
  },
};

const TOOLS_INTRO = [
  '# Tools',
  '',
  'You may call one or more functions to assist with the user query.',
  '',
  'You are provided with function signatures within <tools></tools> XML tags:',
  '<tools>',
];
const TOOLS_OUTRO = [
  '</tools>',
  '',
  'For each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:',
  '<tool_call>',
  '{"name": <function-name>, "arguments": <args-json-object>}',
  '</tool_call>',
];
const WEATHER_LINE =
  '{"type": "function", "function": {"name": "get_weather", "description": "Météo actuelle — «current» weather", ' +
  '"parameters": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1, "maximum": 7}}, "required": ["city"]}}}';

describe('toPythonJson', () => {
  it('writes what plain json.dumps writes (ensure_ascii), as tau2 sends call arguments', () => {
    // Python: json.dumps({'city': 'Zürich', 'k': 'é 中文 😀 \u2028 \x7f', 'l': 'lone \ud800', 'c': '\x01\n'})
    expect(toPythonJson({ city: 'Zürich', k: 'é 中文 😀 \u2028 \u007f', l: 'lone \ud800', c: '\u0001\n' }, { ensureAscii: true })).toBe(
      '{"city": "Z\\u00fcrich", "k": "\\u00e9 \\u4e2d\\u6587 \\ud83d\\ude00 \\u2028 \\u007f", "l": "lone \\ud800", "c": "\\u0001\\n"}',
    );
  });

  it('writes what json.dumps(ensure_ascii=False) writes', () => {
    // Each expected value is Python's output for the same data.
    expect(toPythonJson({ a: [1, 2.5, -3], b: {}, c: [], d: null, e: true, f: false })).toBe(
      '{"a": [1, 2.5, -3], "b": {}, "c": [], "d": null, "e": true, "f": false}',
    );
    expect(toPythonJson({ nested: { list: [{ x: 'y' }, [[]]] } })).toBe('{"nested": {"list": [{"x": "y"}, [[]]]}}');
    expect(toPythonJson('é 中文 😀 \u2028 \u007f')).toBe('"é 中文 😀 \u2028 \u007f"');
    expect(toPythonJson('quote " backslash \\ nl \n cr \r tab \t bs \b ff \f ctl \u0001 \u001f')).toBe(
      '"quote \\" backslash \\\\ nl \\n cr \\r tab \\t bs \\b ff \\f ctl \\u0001 \\u001f"',
    );
    expect(toPythonJson('lone \ud800 surrogate')).toBe('"lone \ud800 surrogate"');
    expect(toPythonJson({ 'k"ey': 1, 'ключ': 2 })).toBe('{"k\\"ey": 1, "ключ": 2}');
  });

  it('keeps key order and prints numbers as Python does', () => {
    expect(toPythonJson({ z: 1, a: 2, m: 3 })).toBe('{"z": 1, "a": 2, "m": 3}');
    expect(toPythonJson([0, -0, 1e20, 1e21, 12345678901234567890n])).toBe(
      '[0, 0, 100000000000000000000, 1000000000000000000000, 12345678901234567890]',
    );
    expect(toPythonJson([0.1, 1 / 3, 0.0001, 0.00012, 9.99e-5, 1.5e-5, 1e-7, -2.5e-10, 5e-324])).toBe(
      '[0.1, 0.3333333333333333, 0.0001, 0.00012, 9.99e-05, 1.5e-05, 1e-07, -2.5e-10, 5e-324]',
    );
    expect(toPythonJson([NaN, Infinity, -Infinity])).toBe('[NaN, Infinity, -Infinity]');
  });

  it('drops what JSON cannot hold from objects and writes null for it elsewhere', () => {
    expect(toPythonJson({ a: undefined, b: 1, c: () => 1 })).toBe('{"b": 1}');
    expect(toPythonJson([undefined, 1])).toBe('[null, 1]');
  });

  it('agrees with JSON.parse on random JSON values', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // Through JSON.stringify too, which also writes -0 as 0.
        expect(JSON.parse(toPythonJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('renderToolsBlock and friends', () => {
  it('renders the tools exactly as the template does', () => {
    const expected = [
      ...TOOLS_INTRO,
      WEATHER_LINE,
      '{"type": "function", "function": {"name": "search", "description": "Search for missing information", "parameters": ' +
        '{"properties": {"model": {"description": "The model used to search. Choices: [\'search-1\', \'search-2\'].\\nModel | price\\nsearch-1 | $1.25", ' +
        '"type": "string"}}, "required": ["model"], "title": "parameters", "type": "object"}}}',
      ...TOOLS_OUTRO,
    ].join('\n');
    expect(renderToolsBlock([weatherTool, searchTool])).toBe(expected);
  });

  it('puts the system text first, then a blank line, then the tools', () => {
    const block = renderToolsBlock([weatherTool]);
    expect(systemWithTools('Be brief.', [weatherTool])).toBe(`Be brief.\n\n${block}`);
    expect(systemWithTools(undefined, [weatherTool])).toBe(block);
    expect(systemWithTools('Be brief.', [])).toBe('Be brief.');
    expect(systemWithTools(undefined, [])).toBe('');
  });

  it('formats calls and tool responses', () => {
    expect(formatToolCall({ name: 'get_weather', arguments: { city: 'Zürich', days: 2 } })).toBe(
      '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Zürich", "days": 2}}\n</tool_call>',
    );
    expect(formatToolCall({ name: 'noop', arguments: {} })).toBe('<tool_call>\n{"name": "noop", "arguments": {}}\n</tool_call>');
    expect(wrapToolResponse('18°C')).toBe('<tool_response>\n18°C\n</tool_response>');
  });
});

const weatherConversation: ChatMessage[] = [
  { role: 'system', content: 'You help with weather.' },
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: '<think>\nI need the weather tool.\n</think>\n\n',
    toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }],
  },
  { role: 'tool', content: '18°C, sunny', toolCallId: 'c1', name: 'get_weather' },
  { role: 'assistant', content: '<think>\nGot it.\n</think>\n\n<message>It is 18°C and sunny.</message>' },
  { role: 'user', content: 'And in Zürich and Oslo?' },
  {
    role: 'assistant',
    content: '<think>\nTwo cities.\n</think>\n\nChecking both.',
    toolCalls: [
      { id: 'c2', name: 'get_weather', arguments: { city: 'Zürich' } },
      { id: 'c3', name: 'get_weather', arguments: { city: 'Oslo', days: 2 } },
    ],
  },
  { role: 'tool', content: '12°C', toolCallId: 'c2', name: 'get_weather' },
  { role: 'tool', content: '3°C', toolCallId: 'c3', name: 'get_weather' },
];

const weatherConversationText = [
  '<|im_start|>system',
  'You help with weather.',
  '',
  ...TOOLS_INTRO,
  WEATHER_LINE,
  ...TOOLS_OUTRO.slice(0, -1),
  '</tool_call><|im_end|>',
  '<|im_start|>user',
  'Weather in Paris?<|im_end|>',
  // Before the last real user query: reasoning is dropped.
  '<|im_start|>assistant',
  '<tool_call>',
  '{"name": "get_weather", "arguments": {"city": "Paris"}}',
  '</tool_call><|im_end|>',
  '<|im_start|>user',
  '<tool_response>',
  '18°C, sunny',
  '</tool_response><|im_end|>',
  '<|im_start|>assistant',
  '<message>It is 18°C and sunny.</message><|im_end|>',
  '<|im_start|>user',
  'And in Zürich and Oslo?<|im_end|>',
  // After it: reasoning is kept.
  '<|im_start|>assistant',
  '<think>',
  'Two cities.',
  '</think>',
  '',
  'Checking both.',
  '<tool_call>',
  '{"name": "get_weather", "arguments": {"city": "Zürich"}}',
  '</tool_call>',
  '<tool_call>',
  '{"name": "get_weather", "arguments": {"city": "Oslo", "days": 2}}',
  '</tool_call><|im_end|>',
  '<|im_start|>user',
  '<tool_response>',
  '12°C',
  '</tool_response>',
  '<tool_response>',
  '3°C',
  '</tool_response><|im_end|>',
  '<|im_start|>assistant',
  '',
].join('\n');

describe('renderChatML', () => {
  it("renders the paper's orchestrator turn", () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You are good at using tools.' },
      { role: 'user', content: 'Problem: What is 2+2?\n\n\n\nChoose an appropriate tool.' },
    ];
    const expected = [
      '<|im_start|>system',
      'You are good at using tools.',
      '',
      ...TOOLS_INTRO,
      '{"type": "function", "function": {"name": "search", "description": "Search for missing information", "parameters": ' +
        '{"properties": {"model": {"description": "The model used to search. Choices: [\'search-1\', \'search-2\'].\\nModel | price\\nsearch-1 | $1.25", ' +
        '"type": "string"}}, "required": ["model"], "title": "parameters", "type": "object"}}}',
      ...TOOLS_OUTRO.slice(0, -1),
      '</tool_call><|im_end|>',
      '<|im_start|>user',
      'Problem: What is 2+2?',
      '',
      '',
      '',
      'Choose an appropriate tool.<|im_end|>',
      '<|im_start|>assistant',
      '',
    ].join('\n');
    expect(renderChatML(messages, [searchTool])).toBe(expected);
    expect(renderChatML(messages, [searchTool], { addGenerationPrompt: true, enableThinking: true })).toBe(expected);
  });

  it('closes an empty think block when thinking is off, and creates a system turn for the tools', () => {
    const expected = [
      '<|im_start|>system',
      ...TOOLS_INTRO,
      WEATHER_LINE,
      ...TOOLS_OUTRO.slice(0, -1),
      '</tool_call><|im_end|>',
      '<|im_start|>user',
      'Hi<|im_end|>',
      '<|im_start|>assistant',
      '<think>',
      '',
      '</think>',
      '',
      '',
    ].join('\n');
    expect(renderChatML([{ role: 'user', content: 'Hi' }], [weatherTool], { enableThinking: false })).toBe(expected);
  });

  it('renders a multi-turn conversation with calls, results and reasoning as the template does', () => {
    expect(renderChatML(weatherConversation, [weatherTool])).toBe(weatherConversationText);
  });

  it('renders without tools and without a generation prompt', () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'S' },
      { role: 'user', content: 'U' },
      { role: 'assistant', content: 'A' },
    ];
    // The last assistant turn after the last query always gets a think block.
    expect(renderChatML(messages, [], { addGenerationPrompt: false })).toBe(
      '<|im_start|>system\nS<|im_end|>\n<|im_start|>user\nU<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nA<|im_end|>\n',
    );
  });

  it('keeps reasoning of every assistant turn after the last query (multi-step tool use)', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Q' },
      { role: 'assistant', content: '<think>r1</think>', toolCalls: [{ id: 'a', name: 'f', arguments: {} }] },
      { role: 'tool', content: 'R', toolCallId: 'a', name: 'f' },
      { role: 'assistant', content: 'no reasoning here' },
      { role: 'user', content: '<tool_response>\nR2\n</tool_response>' },
    ];
    expect(renderChatML(messages, [], { addGenerationPrompt: false })).toBe(
      [
        '<|im_start|>user',
        'Q<|im_end|>',
        '<|im_start|>assistant',
        '<think>',
        'r1',
        '</think>',
        '',
        '<tool_call>',
        '{"name": "f", "arguments": {}}',
        '</tool_call><|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        'R',
        '</tool_response><|im_end|>',
        '<|im_start|>assistant',
        'no reasoning here<|im_end|>',
        '<|im_start|>user',
        '<tool_response>',
        'R2',
        '</tool_response><|im_end|>',
        '',
      ].join('\n'),
    );
  });
});

describe('toPromptMessages', () => {
  it('moves tools into the system turn, calls into the text and tool results into one user turn', () => {
    const prompt = toPromptMessages(weatherConversation, [weatherTool]);
    expect(prompt.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(prompt[0]).toEqual({ role: 'system', content: systemWithTools('You help with weather.', [weatherTool]) });
    expect(prompt[2]).toEqual({
      role: 'assistant',
      content:
        '<think>\nI need the weather tool.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    });
    expect(prompt[6]?.content).toBe(
      '<think>\nTwo cities.\n</think>\n\nChecking both.\n' +
        formatToolCall({ name: 'get_weather', arguments: { city: 'Zürich' } }) +
        '\n' +
        formatToolCall({ name: 'get_weather', arguments: { city: 'Oslo', days: 2 } }),
    );
    expect(prompt[7]).toEqual({ role: 'user', content: '<tool_response>\n12°C\n</tool_response>\n<tool_response>\n3°C\n</tool_response>' });
    expect(prompt.some((message) => 'toolCalls' in message)).toBe(false);
    expect(renderChatML(prompt, [])).toBe(weatherConversationText);
  });

  it('creates a system turn only when there are tools, and leaves messages alone without them', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Hi' }];
    expect(toPromptMessages(messages, [])).toEqual(messages);
    expect(toPromptMessages(messages, [weatherTool])).toEqual([
      { role: 'system', content: renderToolsBlock([weatherTool]) },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('gives the same rendered text as rendering the original with tools (property)', () => {
    // Two documented exceptions, where flattening cannot match: call arguments containing
    // </think> (the template would split the flattened text there) and assistant content made
    // only of newlines (the template tests it before stripping them).
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', '\n', 'é', '😀', '<think>', '</think>', '<tool_response>', '</tool_response>', '"'),
    });
    const onlyNewlines = (content: string): boolean => /^\n+$/.test(content);
    const argumentsArbitrary = fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    const call = fc.record({ id: fc.string(), name: fc.stringMatching(/^[a-z_]{1,8}$/), arguments: argumentsArbitrary });
    const message: fc.Arbitrary<ChatMessage> = fc.oneof(
      fc.record({ role: fc.constant('system' as const), content: text }),
      fc.record({ role: fc.constant('user' as const), content: text }),
      fc.record({ role: fc.constant('assistant' as const), content: text }),
      fc.record({
        role: fc.constant('assistant' as const),
        content: text.filter((content) => !onlyNewlines(content)),
        toolCalls: fc.array(call, { maxLength: 3 }),
      }),
      fc.record({ role: fc.constant('tool' as const), content: text, toolCallId: fc.string(), name: fc.string() }),
    );
    const tool = fc.record({ name: fc.stringMatching(/^[a-z_]{1,8}$/), description: text, parameters: argumentsArbitrary });
    const thinkInArguments = (messages: ChatMessage[]): boolean =>
      messages.some((m) => m.role === 'assistant' && (m.toolCalls ?? []).some((c) => toPythonJson(c.arguments).includes('</think>')));
    const thinking = fc.option(fc.boolean(), { nil: undefined });
    fc.assert(
      fc.property(fc.array(message, { maxLength: 8 }), fc.array(tool, { maxLength: 2 }), thinking, (messages, tools, enableThinking) => {
        fc.pre(!thinkInArguments(messages));
        const prompt = toPromptMessages(messages, tools);
        expect(prompt.every((m) => m.role === 'system' || m.role === 'user' || m.role === 'assistant')).toBe(true);
        expect(renderChatML(prompt, [], { enableThinking })).toBe(renderChatML(messages, tools, { enableThinking }));
      }),
      { numRuns: 500 },
    );
  });
});
