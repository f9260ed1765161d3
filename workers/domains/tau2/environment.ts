// A τ² environment (tau2/environment/environment.py): the agent's toolkit, the user's toolkit when
// the domain has one, and the sync that keeps them consistent after every step. It answers a tool
// call with the message τ² would record, runs a task's set-up and assertions, replays a recorded
// conversation into a fresh database (checking every recorded result), and hashes its databases
// as τ² does. Pure TypeScript.

import { type Requestor, type Tau2Message, type Tau2ToolCall, type ToolMessage } from './messages.ts';
import { deepCopy, type ModelSchema, validateModel } from './model.ts';
import { valueError } from './pyErrors.ts';
import { parsePyJson, pyDictHash } from './pyJson.ts';
import { isModel, pyEquals, type PyValue } from './pyValues.ts';
import type { EnvAssertion, EnvFunctionCall } from './tasks.ts';
import { errorText, toJsonStr, type Toolkit } from './toolkit.ts';

/** A recorded tool result that the tool no longer returns: τ² refuses to grade such a conversation. */
export class ReplayMismatch extends Error {
  override name = 'ReplayMismatch';
  constructor(
    readonly call: Tau2ToolCall,
    readonly returned: string,
    readonly expected: string,
  ) {
    super(`replaying ${call.requestor === 'user' ? "the user's" : "the agent's"} call ${call.name} (id ${call.id || '(none)'}) returned\n${returned}\nwhere the conversation recorded\n${expected}`);
  }
}

/** A conversation whose tool messages do not follow their calls (τ²'s `set_state` refuses it). */
export class TrajectoryError extends Error {
  override name = 'TrajectoryError';
}

export interface Tau2EnvironmentParts {
  domainName: string;
  policy: string;
  tools: Toolkit;
  userTools: Toolkit | null;
  dbSchema: ModelSchema;
  userDbSchema: ModelSchema | null;
  /** The domain's `sync_tools` (telecom's keeps the phone in line with the line's account). */
  sync?: (environment: Tau2Environment) => void;
}

export class Tau2Environment {
  readonly domainName: string;
  readonly policy: string;
  readonly tools: Toolkit;
  readonly userTools: Toolkit | null;
  readonly #parts: Tau2EnvironmentParts;

  constructor(parts: Tau2EnvironmentParts) {
    this.#parts = parts;
    this.domainName = parts.domainName;
    this.policy = parts.policy;
    this.tools = parts.tools;
    this.userTools = parts.userTools;
    this.sync();
  }

  sync(): void {
    this.#parts.sync?.(this);
  }

  #toolkit(requestor: Requestor): Toolkit {
    if (requestor === 'assistant') return this.tools;
    if (!this.userTools) throw valueError('User tools not available');
    return this.userTools;
  }

  /** `make_tool_call`: runs a tool for its requestor (no sync). Throws what the tool raised. */
  makeToolCall(name: string, requestor: Requestor, kwargs: ReadonlyMap<string, PyValue>): PyValue {
    return this.#toolkit(requestor).useTool(name, kwargs);
  }

  /** `get_response`: the tool message τ² records for a call, errors included; syncs after a call
   * that succeeded. */
  getResponse(call: Tau2ToolCall): ToolMessage {
    let content: string;
    let error = false;
    try {
      const response = this.makeToolCall(call.name, call.requestor, call.arguments);
      this.sync();
      content = toJsonStr(response);
    } catch (thrown) {
      content = errorText(thrown);
      error = true;
    }
    return { role: 'tool', id: call.id, content, requestor: call.requestor, error };
  }

  /** `run_env_function_call`: any function of either toolkit (task set-up), then a sync. */
  runEnvFunctionCall(call: EnvFunctionCall): PyValue {
    const result = this.#toolkit(call.envType).call(call.funcName, call.arguments);
    this.sync();
    return result;
  }

  /** `run_env_assertion`: the function's bool against the expected value. */
  runEnvAssertion(assertion: EnvAssertion): boolean {
    const result = this.runEnvFunctionCall(assertion);
    if (typeof result !== 'boolean') throw valueError(`Function ${assertion.funcName} returned ${typeof result} instead of bool`);
    return result === assertion.assertValue;
  }

  /** `update_db`: the data merged into the database as addict merges dicts, then validated. */
  updateDb(requestor: Requestor, data: Map<string, PyValue>): void {
    const kit = this.#toolkit(requestor);
    const schema = requestor === 'assistant' ? this.#parts.dbSchema : this.#parts.userDbSchema!;
    kit.db = validateModel(schema, mergeDicts(modelToDict(kit.db), data));
  }

  /**
   * `set_state`: the task's initial data and actions, then every tool call of `history` replayed
   * in order, each result compared (as parsed JSON, else as text) with the recorded one; a
   * difference throws ReplayMismatch, a malformed history TrajectoryError.
   */
  setState(
    initialization: { agentData: Map<string, PyValue> | null; userData: Map<string, PyValue> | null } | null,
    actions: readonly EnvFunctionCall[] | null,
    history: readonly Tau2Message[],
  ): void {
    if (initialization?.agentData) this.updateDb('assistant', initialization.agentData);
    if (initialization?.userData) this.updateDb('user', initialization.userData);
    for (const action of actions ?? []) this.runEnvFunctionCall(action);
    for (const [call, recorded] of pairCalls(history)) {
      const response = this.getResponse(call);
      if (!pyEquals(readContent(response.content), readContent(recorded.content))) throw new ReplayMismatch(call, response.content ?? '', recorded.content ?? '');
    }
    this.sync();
  }

  /** `get_db_hash`: sha256 of the database's sorted-key JSON. */
  dbHash(): Promise<string> {
    return pyDictHash(this.tools.db, (row) => this.tools.knownDump(row));
  }

  userDbHash(): Promise<string | null> {
    const user = this.userTools;
    return user ? pyDictHash(user.db, (row) => user.knownDump(row)) : Promise.resolve(null);
  }
}

/** Each tool call of the history with the tool message that answered it (τ²'s
 * get_actions_from_messages). */
export function pairCalls(history: readonly Tau2Message[]): [Tau2ToolCall, ToolMessage][] {
  const pairs: [Tau2ToolCall, ToolMessage][] = [];
  for (let i = 0; i < history.length; i++) {
    const message = history[i]!;
    if (message.role === 'tool') throw new TrajectoryError(`message ${i + 1} is a tool message that follows no tool call`);
    if ((message.role === 'assistant' || message.role === 'user') && message.toolCalls !== null) {
      for (const call of message.toolCalls) {
        const answer = history[++i];
        if (!answer) throw new TrajectoryError(`the call ${call.name} (message ${i}) has no tool message after it`);
        if (answer.role !== 'tool') throw new TrajectoryError(`message ${i + 1} should be the tool message answering ${call.name}, not a ${answer.role} message`);
        if (answer.id !== call.id) throw new TrajectoryError(`message ${i + 1} answers call id ${answer.id}, not ${call.id} (${call.name})`);
        pairs.push([call, answer]);
      }
    }
  }
  return pairs;
}

function readContent(content: string | null): PyValue {
  if (content === null) return null;
  try {
    return parsePyJson(content);
  } catch {
    return content;
  }
}

function modelToDict(value: PyValue): PyValue {
  if (Array.isArray(value)) return value.map(modelToDict);
  if (value instanceof Map) return new Map([...value].map(([k, v]) => [k, modelToDict(v)]));
  if (isModel(value)) return new Map(Object.entries(value).map(([k, v]) => [k, modelToDict(v)]));
  return value;
}

function mergeDicts(base: PyValue, update: Map<string, PyValue>): Map<string, PyValue> {
  const out = base instanceof Map ? new Map(base) : new Map<string, PyValue>();
  for (const [key, value] of update) {
    const current = out.get(key);
    out.set(key, current instanceof Map && value instanceof Map ? mergeDicts(current, value) : deepCopy(value));
  }
  return out;
}

