// Checks that a tool's `parameters` is a JSON schema the engine can offer and enforce: an object
// schema with named properties, built from the keywords validateArguments checks. Used by the
// config schema (a custom tool in a file) and by the playground's tool editor (as you type).

/** The JSON types a schema's `type` may name. */
export const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;

/** A tool name the OpenAI-style function format accepts. */
export const TOOL_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
export const TOOL_NAME_RULE = 'must be 1 to 64 letters, digits, "_" or "-", starting with a letter or "_"';

/** Deeper nesting than this is refused: no real argument list needs it, and checking stays bounded. */
const MAX_DEPTH = 16;

export interface SchemaProblem {
  /** Where in the schema, as keys from its root (empty: the root itself). */
  path: (string | number)[];
  message: string;
}

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function checkNode(node: unknown, path: (string | number)[], depth: number, problems: SchemaProblem[]): void {
  if (!isFields(node)) {
    problems.push({ path, message: `must be a schema object such as {"type": "string"}, not ${describe(node)}` });
    return;
  }
  if (depth > MAX_DEPTH) {
    problems.push({ path, message: `nests deeper than ${MAX_DEPTH} levels` });
    return;
  }
  if ('type' in node) {
    const types = Array.isArray(node.type) ? node.type : [node.type];
    if (types.length === 0) problems.push({ path: [...path, 'type'], message: 'must name at least one type' });
    for (const type of types) {
      if (!(JSON_TYPES as readonly unknown[]).includes(type)) {
        problems.push({
          path: [...path, 'type'],
          message: `${JSON.stringify(type)} is not a JSON type (use ${JSON_TYPES.map((t) => `"${t}"`).join(', ')})`,
        });
      }
    }
  }
  if ('description' in node && typeof node.description !== 'string') {
    problems.push({ path: [...path, 'description'], message: 'must be a string' });
  }
  if ('enum' in node && !(Array.isArray(node.enum) && node.enum.length > 0)) {
    problems.push({ path: [...path, 'enum'], message: 'must be a non-empty array of the allowed values' });
  }
  if ('properties' in node) {
    if (!isFields(node.properties)) {
      problems.push({ path: [...path, 'properties'], message: `must be an object of named schemas, not ${describe(node.properties)}` });
    } else {
      for (const [key, child] of Object.entries(node.properties)) checkNode(child, [...path, 'properties', key], depth + 1, problems);
    }
  }
  if ('required' in node) {
    if (!Array.isArray(node.required) || node.required.some((key) => typeof key !== 'string')) {
      problems.push({ path: [...path, 'required'], message: 'must be an array of property names' });
    } else {
      const declared = isFields(node.properties) ? node.properties : {};
      for (const key of node.required as string[]) {
        if (!Object.hasOwn(declared, key)) {
          problems.push({ path: [...path, 'required'], message: `names "${key}", which is not in properties` });
        }
      }
    }
  }
  if ('items' in node) checkNode(node.items, [...path, 'items'], depth + 1, problems);
  if ('additionalProperties' in node && typeof node.additionalProperties !== 'boolean') {
    checkNode(node.additionalProperties, [...path, 'additionalProperties'], depth + 1, problems);
  }
}

/** The problems that keep `parameters` from being a tool's argument schema; empty when it is one. */
export function checkToolParameters(parameters: unknown): SchemaProblem[] {
  if (!isFields(parameters)) {
    return [{ path: [], message: `must be a JSON object (a schema with "type": "object"), not ${describe(parameters)}` }];
  }
  const problems: SchemaProblem[] = [];
  if (parameters.type !== 'object') {
    problems.push({ path: ['type'], message: 'must be "object": a tool takes its arguments by name' });
  }
  if (!('properties' in parameters)) {
    problems.push({ path: ['properties'], message: 'is missing: list each argument, e.g. {"city": {"type": "string"}}' });
  }
  checkNode(parameters, [], 0, problems);
  return problems;
}

/** A problem as one line: "properties.city.type: … ". */
export function formatSchemaProblem(problem: SchemaProblem): string {
  return problem.path.length === 0 ? `The schema ${problem.message}` : `${problem.path.join('.')}: ${problem.message}`;
}
