import { describe, expect, it } from 'vitest';
import { checkToolDraft, starterDraft, type ToolDraft } from './toolDraft.ts';
import { checkSampleArguments } from './tryTool.ts';

const draft = (change: Partial<ToolDraft> = {}): ToolDraft => ({ ...starterDraft([]), ...change });

describe('checkToolDraft', () => {
  it('accepts the starter tool as it is, with a free name', () => {
    const check = checkToolDraft(draft(), []);
    expect(check).toMatchObject({ ok: true, tool: { name: 'word_count', enabled: true, parameters: { required: ['text'] } } });
    expect(starterDraft(['word_count', 'word_count_2']).name).toBe('word_count_3');
  });

  it('names what keeps each field from being saved', () => {
    const check = checkToolDraft(draft({ name: 'word count', description: '  ', parametersText: '{"type": "object",}', code: ' ' }), []);
    expect(check.ok).toBe(false);
    expect(check.problems).toEqual({
      name: ['The name must be 1 to 64 letters, digits, "_" or "-", starting with a letter or "_".'],
      description: ['Say what the tool does: the orchestrator reads this to decide when to call it.'],
      parameters: [expect.stringMatching(/^Not valid JSON: /)],
      code: ['Write the JavaScript that implements the tool.'],
    });
    expect(check).toMatchObject({ parameters: null });
  });

  it('refuses a built-in name and a name another tool has', () => {
    expect(checkToolDraft(draft({ name: 'calculator' }), []).problems.name).toEqual([
      '"calculator" is a built-in tool\'s name; choose another.',
    ]);
    expect(checkToolDraft(draft({ name: 'mine' }), ['mine']).problems.name).toEqual(['You already have a tool named "mine".']);
  });

  it('checks the schema shape, and hands a good schema to Try it even while other fields have problems', () => {
    expect(checkToolDraft(draft({ parametersText: '{"type": "object", "properties": {"n": {"type": "int"}}}' }), []).problems.parameters).toEqual([
      'properties.n.type: "int" is not a JSON type (use "string", "number", "integer", "boolean", "object", "array", "null")',
    ]);
    expect(checkToolDraft(draft({ name: '' }), [])).toMatchObject({ ok: false, parameters: { type: 'object' } });
  });

  it('passes on what the config schema alone says (code past its size limit)', () => {
    expect(checkToolDraft(draft({ code: 'x'.repeat(100_001) }), []).problems.code).toEqual(['must be at most 100,000 characters']);
  });
});

describe('checkSampleArguments', () => {
  const schema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };

  it('reads arguments that fit the schema', () => {
    expect(checkSampleArguments('{"text": "hi"}', schema)).toEqual({ args: { text: 'hi' } });
  });

  it('says why other text is not arguments', () => {
    expect(checkSampleArguments('{"text": 1}', schema)).toEqual({ problems: ['arguments.text must be string, got integer'] });
    expect(checkSampleArguments('[1]', schema)).toEqual({
      problems: ['The sample arguments must be a JSON object of named arguments, like {"text": "hello"}.'],
    });
    expect(checkSampleArguments('{', schema)).toEqual({ problems: [expect.stringMatching(/^The sample arguments are not valid JSON: /)] });
  });
});
