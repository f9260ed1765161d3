// τ²'s tasks (tau2/data_model/tasks.py): the user's scenario, the initial state, and the
// evaluation criteria with their reward basis. Read from the shipped tasks.json with Python's
// number types kept (a golden `"gb_amount": 2.0` is a float). Pure TypeScript.

import type { Requestor } from './messages.ts';
import { parsePyJson } from './pyJson.ts';
import type { PyValue } from './pyValues.ts';

export const REWARD_TYPES = ['DB', 'ENV_ASSERTION', 'NL_ASSERTION', 'ACTION', 'COMMUNICATE'] as const;
export type RewardType = (typeof REWARD_TYPES)[number];

export interface Action {
  actionId: string;
  requestor: Requestor;
  name: string;
  arguments: Map<string, PyValue>;
  info: string | null;
  /** The arguments that must match; null: all of the call's. */
  compareArgs: string[] | null;
}

export interface EnvFunctionCall {
  envType: Requestor;
  funcName: string;
  arguments: Map<string, PyValue>;
}

export interface EnvAssertion extends EnvFunctionCall {
  assertValue: boolean;
  message: string | null;
}

export interface StructuredInstructions {
  domain: string;
  reasonForCall: string;
  knownInfo: string | null;
  unknownInfo: string | null;
  taskInstructions: string;
}

export interface UserScenario {
  persona: string | null;
  instructions: StructuredInstructions | string;
}

export interface EvaluationCriteria {
  actions: Action[] | null;
  envAssertions: EnvAssertion[] | null;
  communicateInfo: string[] | null;
  nlAssertions: string[] | null;
  rewardBasis: RewardType[];
}

export interface Tau2Task {
  id: string;
  purpose: string | null;
  userScenario: UserScenario;
  ticket: string | null;
  initialState: {
    initializationData: { agentData: Map<string, PyValue> | null; userData: Map<string, PyValue> | null } | null;
    initializationActions: EnvFunctionCall[] | null;
  } | null;
  evaluationCriteria: EvaluationCriteria | null;
}

export class TaskFileError extends Error {
  override name = 'TaskFileError';
}

type Dict = Map<string, PyValue>;

/** Reads one task file; every problem names the file, the task and the field. */
export function parseTasks(text: string, source: string): Tau2Task[] {
  let data: PyValue;
  try {
    data = parsePyJson(text);
  } catch (error) {
    throw new TaskFileError(`${source} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
  if (!Array.isArray(data)) throw new TaskFileError(`${source} must hold a list of tasks`);
  return data.map((item, index) => readTask(item, `${source}: task ${index + 1}`));
}

function readTask(item: PyValue, where: string): Tau2Task {
  const task = dict(item, where);
  const id = str(task, 'id', where);
  const at = `${where} ("${id}")`;
  const description = optDict(task, 'description', at);
  const scenario = dict(task.get('user_scenario') ?? null, `${at}: user_scenario`);
  const instructionsValue = scenario.get('instructions') ?? null;
  const instructions =
    typeof instructionsValue === 'string'
      ? instructionsValue
      : (() => {
          const d = dict(instructionsValue, `${at}: user_scenario.instructions`);
          const w = `${at}: user_scenario.instructions`;
          return {
            domain: str(d, 'domain', w),
            reasonForCall: str(d, 'reason_for_call', w),
            knownInfo: optStr(d, 'known_info', w),
            unknownInfo: optStr(d, 'unknown_info', w),
            taskInstructions: str(d, 'task_instructions', w),
          };
        })();
  const initial = optDict(task, 'initial_state', at);
  const criteria = optDict(task, 'evaluation_criteria', at);
  if (initial && (initial.get('message_history') ?? null) !== null) {
    throw new TaskFileError(`${at}: initial_state.message_history is not supported by this port (no shipped task uses it)`);
  }
  const initData = initial ? optDict(initial, 'initialization_data', `${at}: initial_state`) : null;
  return {
    id,
    purpose: description ? optStr(description, 'purpose', `${at}: description`) : null,
    userScenario: { persona: optStr(scenario, 'persona', `${at}: user_scenario`), instructions },
    ticket: optStr(task, 'ticket', at),
    initialState: initial
      ? {
          initializationData: initData
            ? { agentData: optDict(initData, 'agent_data', at), userData: optDict(initData, 'user_data', at) }
            : null,
          initializationActions: optList(initial, 'initialization_actions', at)?.map((a, i) => readEnvCall(a, `${at}: initialization_actions[${i}]`)) ?? null,
        }
      : null,
    evaluationCriteria: criteria ? readCriteria(criteria, `${at}: evaluation_criteria`) : null,
  };
}

function readCriteria(c: Dict, at: string): EvaluationCriteria {
  const basisValue = c.get('reward_basis') ?? null;
  const rewardBasis: RewardType[] =
    basisValue === null
      ? ['DB', 'COMMUNICATE']
      : list(basisValue, `${at}.reward_basis`).map((b) => {
          if (typeof b !== 'string' || !(REWARD_TYPES as readonly string[]).includes(b)) throw new TaskFileError(`${at}.reward_basis: unknown reward type ${JSON.stringify(b)}`);
          return b as RewardType;
        });
  return {
    actions: optList(c, 'actions', at)?.map((a, i) => readAction(a, `${at}.actions[${i}]`)) ?? null,
    envAssertions:
      optList(c, 'env_assertions', at)?.map((a, i) => {
        const w = `${at}.env_assertions[${i}]`;
        const d = dict(a, w);
        const assertValue = d.get('assert_value') ?? true;
        if (typeof assertValue !== 'boolean') throw new TaskFileError(`${w}.assert_value must be true or false`);
        return { ...readEnvCall(a, w), assertValue, message: optStr(d, 'message', w) };
      }) ?? null,
    communicateInfo: optList(c, 'communicate_info', at)?.map((s, i) => strValue(s, `${at}.communicate_info[${i}]`)) ?? null,
    nlAssertions: optList(c, 'nl_assertions', at)?.map((s, i) => strValue(s, `${at}.nl_assertions[${i}]`)) ?? null,
    rewardBasis,
  };
}

function readAction(value: PyValue, at: string): Action {
  const d = dict(value, at);
  const compare = optList(d, 'compare_args', at);
  return {
    actionId: str(d, 'action_id', at),
    requestor: requestor(d.get('requestor') ?? 'assistant', `${at}.requestor`),
    name: str(d, 'name', at),
    arguments: dict(d.get('arguments') ?? null, `${at}.arguments`),
    info: optStr(d, 'info', at),
    compareArgs: compare ? compare.map((s, i) => strValue(s, `${at}.compare_args[${i}]`)) : null,
  };
}

function readEnvCall(value: PyValue, at: string): EnvFunctionCall {
  const d = dict(value, at);
  return { envType: requestor(d.get('env_type') ?? null, `${at}.env_type`), funcName: str(d, 'func_name', at), arguments: dict(d.get('arguments') ?? null, `${at}.arguments`) };
}

function requestor(value: PyValue, at: string): Requestor {
  if (value === 'assistant' || value === 'user') return value;
  throw new TaskFileError(`${at} must be "assistant" or "user"`);
}

function dict(value: PyValue, at: string): Dict {
  if (value instanceof Map) return value;
  throw new TaskFileError(`${at} must be an object`);
}
function list(value: PyValue, at: string): PyValue[] {
  if (Array.isArray(value)) return value;
  throw new TaskFileError(`${at} must be a list`);
}
function strValue(value: PyValue, at: string): string {
  if (typeof value === 'string') return value;
  throw new TaskFileError(`${at} must be a string`);
}
const str = (d: Dict, key: string, at: string) => strValue(d.get(key) ?? null, `${at}.${key}`);
const optStr = (d: Dict, key: string, at: string) => ((d.get(key) ?? null) === null ? null : str(d, key, at));
const optDict = (d: Dict, key: string, at: string) => ((d.get(key) ?? null) === null ? null : dict(d.get(key)!, `${at}.${key}`));
const optList = (d: Dict, key: string, at: string) => ((d.get(key) ?? null) === null ? null : list(d.get(key)!, `${at}.${key}`));

/** τ²'s `str(StructuredUserInstructions)` / `str(UserScenario)`: what the user simulator reads. */
export function scenarioText(scenario: UserScenario): string {
  const indent = (text: string) => text.split(/(?<=\n)/).map((line) => (line.trim() === '' ? line : `\t${line}`)).join('');
  const instructions =
    typeof scenario.instructions === 'string'
      ? scenario.instructions
      : [
          `Domain: ${scenario.instructions.domain}`,
          `Reason for call:\n${indent(scenario.instructions.reasonForCall)}`,
          ...(scenario.instructions.knownInfo !== null ? [`Known info:\n${indent(scenario.instructions.knownInfo)}`] : []),
          ...(scenario.instructions.unknownInfo !== null ? [`Unknown info:\n${indent(scenario.instructions.unknownInfo)}`] : []),
          `Task instructions:\n${indent(scenario.instructions.taskInstructions)}`,
        ].join('\n');
  const lines: string[] = [];
  if (scenario.persona !== null) lines.push('Persona:', indent(scenario.persona));
  lines.push('Instructions:', indent(instructions));
  return lines.join('\n');
}

