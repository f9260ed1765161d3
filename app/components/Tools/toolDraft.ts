// The tool being edited, as the editor's text fields hold it, and what keeps it from being saved:
// checked as you type with the same rules the config file's schema applies.

import { customToolSchema, type CustomToolConfig } from '../../../workers/engine/config.ts';
import { BUILT_IN_TOOL_NAMES } from '../../../workers/engine/configBasics.ts';
import { checkToolParameters, formatSchemaProblem, TOOL_NAME_PATTERN, TOOL_NAME_RULE } from '../../../workers/engine/toolSchema.ts';
import type { JsonSchema } from '../../../workers/engine/types.ts';
import type { StoredCustomTool } from '../../storage/customToolRecords.ts';

export interface ToolDraft {
  /** The saved tool this edits; null for a new one. */
  id: string | null;
  name: string;
  description: string;
  /** The JSON schema as typed. */
  parametersText: string;
  code: string;
  enabled: boolean;
}

export interface DraftProblems {
  name: string[];
  description: string[];
  parameters: string[];
  code: string[];
}

export type DraftCheck =
  | { ok: true; tool: CustomToolConfig; problems: DraftProblems }
  | { ok: false; problems: DraftProblems; /** The schema, when it alone is fine (Try it needs it). */ parameters: JsonSchema | null };

const STARTER_PARAMETERS = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to count the words of.' } },
  required: ['text'],
};

const STARTER_CODE = `// \`args\` holds the call's arguments, already checked against the schema.
// Return a JSON value: it is what the orchestrator reads.
const words = args.text.split(/\\s+/).filter(Boolean);
return { words: words.length };
`;

export const STARTER_SAMPLE = '{ "text": "the quick brown fox" }';

export function starterDraft(takenNames: readonly string[]): ToolDraft {
  let name = 'word_count';
  for (let n = 2; takenNames.includes(name); n++) name = `word_count_${n}`;
  return {
    id: null,
    name,
    description: 'Counts the words in a text.',
    parametersText: JSON.stringify(STARTER_PARAMETERS, null, 2),
    code: STARTER_CODE,
    enabled: true,
  };
}

export function draftFromTool(tool: StoredCustomTool): ToolDraft {
  return {
    id: tool.id,
    name: tool.name,
    description: tool.description,
    parametersText: JSON.stringify(tool.parameters, null, 2),
    code: tool.code,
    enabled: tool.enabled,
  };
}

/** Parses the schema text: the object, or what is wrong with it. */
export function parseParameters(text: string): { schema: JsonSchema; problems: [] } | { schema: null; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { schema: null, problems: [`Not valid JSON: ${(error as Error).message}`] };
  }
  const problems = checkToolParameters(value).map(formatSchemaProblem);
  return problems.length === 0 ? { schema: value as JsonSchema, problems: [] } : { schema: null, problems };
}

/** Everything that keeps the draft from being saved; `otherNames`: the user's other tools. */
export function checkToolDraft(draft: ToolDraft, otherNames: readonly string[]): DraftCheck {
  const name = draft.name.trim();
  const problems: DraftProblems = { name: [], description: [], parameters: [], code: [] };
  if (name === '') problems.name.push('Give the tool a name.');
  else if (!TOOL_NAME_PATTERN.test(name)) problems.name.push(`The name ${TOOL_NAME_RULE}.`);
  else if (BUILT_IN_TOOL_NAMES.includes(name)) problems.name.push(`"${name}" is a built-in tool's name; choose another.`);
  else if (otherNames.includes(name)) problems.name.push(`You already have a tool named "${name}".`);
  if (draft.description.trim() === '') {
    problems.description.push('Say what the tool does: the orchestrator reads this to decide when to call it.');
  }
  const parameters = parseParameters(draft.parametersText);
  problems.parameters.push(...parameters.problems);
  if (draft.code.trim() === '') problems.code.push('Write the JavaScript that implements the tool.');

  const failed = Object.values(problems).some((list) => list.length > 0);
  if (failed || parameters.schema === null) return { ok: false, problems, parameters: parameters.schema };
  const parsed = customToolSchema.safeParse({
    name,
    description: draft.description.trim(),
    parameters: parameters.schema,
    code: draft.code,
    enabled: draft.enabled,
  });
  if (!parsed.success) {
    // Whatever the checks above missed, the config schema still says (e.g. code past its size limit).
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      const list = field === 'name' || field === 'description' || field === 'parameters' || field === 'code' ? problems[field] : problems.code;
      list.push(issue.message);
    }
    return { ok: false, problems, parameters: parameters.schema };
  }
  return { ok: true, tool: parsed.data, problems };
}
