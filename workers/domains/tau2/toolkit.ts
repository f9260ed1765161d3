// A τ² toolkit: a domain's functions over its database, called by name with keyword arguments as
// τ²'s `ToolKitBase.use_tool` calls them, and a tool's return value turned into the text the
// agent reads exactly as τ²'s `Environment.to_json_str` turns it. Pure TypeScript.

import { PyError, typeError, valueError } from './pyErrors.ts';
import { pyJsonDumps } from './pyJson.ts';
import { isModel, PyFloat, pyStr, type PyModel, type PyValue } from './pyValues.ts';

/** τ²'s ToolType: what a tool does to the database. */
export type ToolKind = 'read' | 'write' | 'think' | 'generic';

export interface ToolParam {
  name: string;
  /** The default of an optional parameter. */
  default?: () => PyValue;
}

export type Kwargs = ReadonlyMap<string, PyValue>;

export interface ToolFunction<Kit> {
  params: readonly ToolParam[];
  /** A tool the agent (or the user) is offered; the others are only for task set-up and
   * assertions (τ²'s `run_env_function_call`). */
  tool?: ToolKind;
  run(kit: Kit, args: Record<string, PyValue>): PyValue;
}

export function fn<Kit>(params: (string | ToolParam)[], run: (kit: Kit, args: Record<string, PyValue>) => PyValue, tool?: ToolKind): ToolFunction<Kit> {
  return { params: params.map((p) => (typeof p === 'string' ? { name: p } : p)), run, ...(tool ? { tool } : {}) };
}

/** Python's wording for a call's missing arguments: 'a', 'a' and 'b', 'a', 'b', and 'c'. */
function nameList(names: string[]): string {
  const quoted = names.map((n) => `'${n}'`);
  if (quoted.length <= 1) return quoted.join('');
  if (quoted.length === 2) return `${quoted[0]} and ${quoted[1]}`;
  return `${quoted.slice(0, -1).join(', ')}, and ${quoted.at(-1)}`;
}

/** Binds keyword arguments to a function's parameters as Python does, with its TypeErrors. */
export function bindArguments(qualifiedName: string, params: readonly ToolParam[], kwargs: Kwargs): Record<string, PyValue> {
  const known = new Set(params.map((p) => p.name));
  for (const key of kwargs.keys()) {
    if (!known.has(key)) throw typeError(`${qualifiedName}() got an unexpected keyword argument '${key}'`);
  }
  const missing = params.filter((p) => !p.default && !kwargs.has(p.name)).map((p) => p.name);
  if (missing.length > 0) {
    throw typeError(`${qualifiedName}() missing ${missing.length} required positional argument${missing.length === 1 ? '' : 's'}: ${nameList(missing)}`);
  }
  const bound: Record<string, PyValue> = {};
  for (const p of params) bound[p.name] = kwargs.has(p.name) ? kwargs.get(p.name)! : p.default!();
  return bound;
}

/** A domain's toolkit: its database and its functions. */
export abstract class Toolkit<Db extends PyModel = PyModel> {
  /** The Python class, as error messages name it ("RetailTools"). */
  abstract readonly className: string;
  abstract readonly functions: Readonly<Record<string, ToolFunction<this>>>;

  constructor(public db: Db) {}

  /** The text of a row this toolkit has not changed, sorted-key dumped, if it keeps such texts
   * (retail does: its seed's rows are shared by every rollout). */
  knownDump(_row: object): string | undefined {
    return undefined;
  }

  /** Whether a row is the seed's, shared with every rollout (never written in place: a tool
   * copies it first), told without dumping it. */
  sharedRow(_row: object): boolean {
    return false;
  }

  /** The names of the tools offered (τ²'s `tools`), in the order τ² lists them. */
  toolNames(): string[] {
    return Object.entries(this.functions)
      .filter(([, f]) => f.tool !== undefined)
      .map(([name]) => name);
  }

  hasTool(name: string): boolean {
    return Object.hasOwn(this.functions, name) && this.functions[name]!.tool !== undefined;
  }

  /** τ²'s `use_tool`: a tool by name, or ValueError "Tool '…' not found.". */
  useTool(name: string, kwargs: Kwargs): PyValue {
    if (!this.hasTool(name)) throw valueError(`Tool '${name}' not found.`);
    return this.call(name, kwargs);
  }

  /** Any function of the toolkit (`getattr(tool_kit, func_name)(**arguments)`). */
  call(name: string, kwargs: Kwargs): PyValue {
    if (!Object.hasOwn(this.functions, name)) throw new PyError('AttributeError', `'${this.className}' object has no attribute '${name}'`);
    const f = this.functions[name]!;
    return f.run(this, bindArguments(`${this.className}.${name}`, f.params, kwargs));
  }
}

/**
 * τ²'s `Environment.to_json_str`: a string stands as it is; anything else is processed (a model
 * dumped with every field; an int, float or bool, even inside a dict or list, turned into its
 * str(): `{"charge": "10.0"}`) and written by json.dumps.
 */
export function toJsonStr(response: PyValue): string {
  if (typeof response === 'string') return response;
  const process = (value: PyValue): PyValue => {
    if (isModel(value)) return value;
    if (value === null || typeof value === 'string') return value;
    if (typeof value === 'number' || typeof value === 'boolean' || value instanceof PyFloat) return pyStr(value);
    if (Array.isArray(value)) return value.map(process);
    return new Map([...value].map(([k, v]) => [k, process(v)]));
  };
  return pyJsonDumps(process(response));
}

/** `str(e)` of what a tool raised, as τ² prefixes it: `Error: …`. Anything that is not a Python
 * error is a defect of the port and is rethrown. */
export function errorText(error: unknown): string {
  if (error instanceof PyError) return `Error: ${error.text}`;
  throw error;
}
