// A scripted agent and a scripted user that replay a τ² task's known conversation: the golden
// actions in their order (the agent's calls; for telecom, the user's own calls on the phone, which
// the agent asks for one at a time), then the information the agent must communicate, then the
// user's ###STOP###. For tests, the cross-check with τ²'s own evaluator, and a demo that needs no
// model. Either side can be given other actions or words to make a wrong conversation on purpose.
// Pure TypeScript.

import { Tau2Conversation, type Reply } from './conversation.ts';
import type { Tau2Environment } from './environment.ts';
import type { Tau2ToolCall } from './messages.ts';
import type { Action, Tau2Task } from './tasks.ts';

/** What the scripted agent says to hand a user action over; the scripted user acts on it. */
export const ASK_USER_PREFIX = 'Please do this on your phone: ';

const asCall = (action: Action, id: string): Tau2ToolCall => ({ id, name: action.name, arguments: new Map(action.arguments), requestor: action.requestor });

/** The user's opening line: the reason for the call as the scenario states it. */
export function openingLine(task: Tau2Task): string {
  const instructions = task.userScenario.instructions;
  return typeof instructions === 'string' ? instructions : instructions.reasonForCall;
}

export class ScriptedAgent {
  #next = 0;
  #done = false;
  #ids = 0;

  /** `actions`: the golden actions (both sides'); `finalMessage`: what it says when done. */
  constructor(
    readonly actions: readonly Action[],
    readonly finalMessage: string,
  ) {}

  reply(): Reply {
    const action = this.actions[this.#next];
    if (!action) {
      this.#done = true;
      return { content: this.finalMessage, toolCalls: null };
    }
    this.#next += 1;
    if (action.requestor === 'user') return { content: `${ASK_USER_PREFIX}${action.name}`, toolCalls: null };
    return { content: null, toolCalls: [asCall(action, `agent_call_${++this.#ids}`)] };
  }

  get done(): boolean {
    return this.#done;
  }
}

export class ScriptedUser {
  #pending: Action[];
  #ids = 0;
  #opened = false;
  #acted = false;

  /** `userActions`: the calls the user makes on request, in order. */
  constructor(
    readonly task: Tau2Task,
    userActions: readonly Action[],
  ) {
    this.#pending = [...userActions];
  }

  /** The next turn, given what the agent last said. */
  reply(lastAgentText: string | null, agentDone: boolean): Reply {
    if (!this.#opened) {
      this.#opened = true;
      return { content: openingLine(this.task), toolCalls: null };
    }
    if (this.#acted) {
      this.#acted = false;
      return { content: 'Done. What next?', toolCalls: null };
    }
    if (lastAgentText?.startsWith(ASK_USER_PREFIX)) {
      const name = lastAgentText.slice(ASK_USER_PREFIX.length);
      const index = this.#pending.findIndex((a) => a.name === name);
      const action = index >= 0 ? this.#pending.splice(index, 1)[0]! : undefined;
      if (action) {
        this.#acted = true;
        return { content: null, toolCalls: [asCall(action, `user_call_${++this.#ids}`)] };
      }
      return { content: `I cannot find ${name} on my phone.`, toolCalls: null };
    }
    return { content: agentDone ? 'Thank you, that is all. ###STOP###' : 'Okay.', toolCalls: null };
  }
}

/** What the agent says at the end: every piece of information it must communicate. */
export function communicateMessage(task: Tau2Task): string {
  const infos = task.evaluationCriteria?.communicateInfo ?? [];
  return infos.length > 0 ? `Here is what you asked about: ${infos.join('; ')}. Is there anything else?` : 'Your request is complete. Is there anything else?';
}

/** Plays a whole conversation between a scripted agent and a scripted user. */
export function playScripted(task: Tau2Task, environment: Tau2Environment, agent: ScriptedAgent, user: ScriptedUser, limits?: { maxSteps: number; maxErrors: number }): Tau2Conversation {
  const conversation = new Tau2Conversation(task, environment, limits);
  let lastAgentText: string | null = null;
  for (;;) {
    const turn = conversation.next();
    if (turn === 'done') return conversation;
    if (turn === 'environment') conversation.runTools();
    else if (turn === 'agent') lastAgentText = conversation.agentReplied(agent.reply()).content;
    else conversation.userReplied(user.reply(lastAgentText, agent.done));
  }
}

/** The golden conversation of a task, as its scripted agent and user play it. */
export function playGolden(task: Tau2Task, environment: Tau2Environment, limits?: { maxSteps: number; maxErrors: number }): Tau2Conversation {
  const actions = task.evaluationCriteria?.actions ?? [];
  return playScripted(
    task,
    environment,
    new ScriptedAgent(actions, communicateMessage(task)),
    new ScriptedUser(
      task,
      actions.filter((a) => a.requestor === 'user'),
    ),
    limits,
  );
}
