// The conversation's state, the user simulator with a real user model (the scripted
// OpenAI-compatible server), and NL_ASSERTION with and without a judge.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startScriptedServer, type ScriptedServer } from '../../../cli/scripted/scriptedServer.ts';
import { createOpenAICompatibleModel } from '../../backends/openai-compatible/openaiCompatible.ts';
import { ConversationError, FIRST_AGENT_MESSAGE, isUserStop, Tau2Conversation } from './conversation.ts';
import { loadTau2Domain, TAU2_GUIDELINE_FILES } from './domains.ts';
import { evaluateConversation, NL_JUDGE_SYSTEM, nlJudgeUserPrompt, passHatK, passHatKs } from './evaluate.ts';
import { playGolden } from './scripted.ts';
import type { Tau2Task } from './tasks.ts';
import { flipRoles, readUserReply, userRequest, userSystemPrompt } from './userSimulator.ts';

const read = (domain: string) => (file: string) => readFileSync(path.join(import.meta.dirname, domain, file), 'utf8');
const guidelines = (kind: keyof typeof TAU2_GUIDELINE_FILES) => readFileSync(path.join(import.meta.dirname, TAU2_GUIDELINE_FILES[kind]), 'utf8');
const retail = loadTau2Domain('retail', read('retail'));
const telecom = loadTau2Domain('telecom', read('telecom'), { newBillId: () => 'Bfixed01' });
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('the conversation, step by step', () => {
  it('opens with the agent greeting and ends with the user stopping, every step counted', () => {
    const task = retail.tasks[0]!;
    const conversation = playGolden(task, retail.newEnvironment());
    expect(conversation.messages[0]).toEqual({ role: 'assistant', content: FIRST_AGENT_MESSAGE, toolCalls: null });
    expect(conversation.termination).toBe('user_stop');
    // One step per message delivered: the user's opening, 5 calls and their results, the final
    // message and the user's stop.
    expect(conversation.steps).toBe(1 + 5 * 2 + 1 + 1);
    expect(conversation.messages.at(-1)?.content).toContain('###STOP###');
  });

  it('lets max_steps win over a stop on the last allowed step, as τ² does', () => {
    const conversation = new Tau2Conversation(retail.tasks[0]!, retail.newEnvironment(), { maxSteps: 1, maxErrors: 10 });
    conversation.userReplied({ content: 'Never mind. ###STOP###', toolCalls: null });
    expect(conversation.termination).toBe('max_steps');
  });

  it('ends on too many tool errors, and refuses an empty reply or a move out of turn', () => {
    const conversation = new Tau2Conversation(retail.tasks[0]!, retail.newEnvironment(), { maxSteps: 200, maxErrors: 2 });
    expect(() => conversation.agentReplied({ content: 'hi', toolCalls: null })).toThrow(ConversationError);
    expect(() => conversation.userReplied({ content: '  ', toolCalls: null })).toThrow(/neither text nor tool calls/);
    conversation.userReplied({ content: 'Cancel my order.', toolCalls: null });
    const bad = { id: 'c1', name: 'get_order_details', arguments: new Map(), requestor: 'assistant' as const };
    conversation.agentReplied({ content: null, toolCalls: [bad, { ...bad, id: 'c2' }] });
    conversation.runTools();
    expect(conversation.termination).toBe('too_many_errors');
  });

  it('knows the stop signals and the agent stop token', () => {
    for (const signal of ['###STOP###', '###TRANSFER###', '###OUT-OF-SCOPE###']) expect(isUserStop({ content: `ok ${signal}`, toolCalls: null })).toBe(true);
    expect(isUserStop({ content: 'stop', toolCalls: null })).toBe(false);
    const conversation = new Tau2Conversation(retail.tasks[0]!, retail.newEnvironment());
    conversation.userReplied({ content: 'Hello', toolCalls: null });
    conversation.agentReplied({ content: 'Goodbye ###STOP###', toolCalls: null });
    expect(conversation.termination).toBe('agent_stop');
  });
});

describe('the user simulator', () => {
  it("writes τ²'s system prompt byte for byte (guidelines, then the scenario as τ² prints it)", () => {
    // sha256 of UserSimulator(...).system_prompt for each domain's first task, printed by τ².
    expect(sha256(userSystemPrompt(guidelines('plain'), retail.tasks[0]!))).toBe('87797d53a07a2105a8de312ec77655bf68346f92f374a3474b0071fb7280a70b');
    expect(sha256(userSystemPrompt(guidelines('tools'), telecom.tasks[0]!))).toBe('6074d7c159654936e9b4081cf6439b378365d613f301aff4ab589ecfe50ccec7');
  });

  it('sees the conversation with roles flipped and without the agent\'s tool calls', () => {
    const conversation = playGolden(telecom.tasks[0]!, telecom.newEnvironment());
    const seen = flipRoles(conversation.userHistory());
    expect(seen[0]).toEqual({ role: 'user', content: FIRST_AGENT_MESSAGE });
    expect(seen.some((m) => m.role === 'assistant' && m.toolCalls?.[0]?.name === 'toggle_data')).toBe(true);
    expect(seen.find((m) => m.role === 'tool')).toMatchObject({ role: 'tool', name: 'toggle_data' });
    expect(conversation.userHistory().some((m) => m.role === 'tool' && m.requestor === 'assistant')).toBe(false);
  });

  describe('with a user model', () => {
    let server: ScriptedServer;
    const USER = 'scripted/user';
    const JUDGE = 'scripted/judge';
    beforeAll(async () => {
      server = await startScriptedServer({
        scenario: {
          models: {
            [USER]: [
              { content: 'My mobile data is not working.' },
              { content: '', toolCalls: [{ name: 'toggle_data', arguments: '{}' }] },
              { content: 'Data is on now. ###STOP###' },
            ],
            [JUDGE]: [
              { content: '{"results": [{"expectedOutcome": "Agent greets", "reasoning": "it said hi", "metExpectation": true}]}' },
              { content: 'The agent did fine.' },
            ],
          },
        },
      });
    });
    afterAll(async () => {
      await server.close();
    });

    it("plays the user's side through any ChatModel: text, a call on the phone, then a stop", async () => {
      const model = createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: USER, maxRetries: 0 });
      const task = telecom.tasks[0]!;
      const conversation = new Tau2Conversation(task, telecom.newEnvironment());
      const system = userSystemPrompt(guidelines('tools'), task);
      let ids = 0;
      const userTurn = async () => {
        const request = userRequest(system, conversation.userHistory(), telecom.userTools);
        return conversation.userReplied(readUserReply(await model.complete(request), () => `u${++ids}`));
      };
      await userTurn();
      conversation.agentReplied({ content: 'Please turn your mobile data on.', toolCalls: null });
      const call = await userTurn();
      expect(call.toolCalls?.[0]).toMatchObject({ name: 'toggle_data', requestor: 'user' });
      expect(conversation.runTools()[0]?.content).toMatch(/^Mobile Data is now ON\./);
      await userTurn();
      expect(conversation.termination).toBe('user_stop');
      const sent = server.requests.at(-1)?.body as { messages: { role: string; content: string }[]; tools: unknown[] };
      expect(sent.messages[0]).toEqual({ role: 'system', content: system });
      expect(sent.messages[1]).toEqual({ role: 'user', content: FIRST_AGENT_MESSAGE });
      expect(sent.tools).toHaveLength(30);
    });

    it('grades NL_ASSERTION with a judge, says "not graded" without one or when the reply is not the JSON asked for', async () => {
      const judge = createOpenAICompatibleModel({ baseUrl: `${server.url}/v1`, model: JUDGE, maxRetries: 0 });
      const task: Tau2Task = { ...retail.tasks[0]!, evaluationCriteria: { actions: [], envAssertions: null, communicateInfo: [], nlAssertions: ['Agent greets'], rewardBasis: ['NL_ASSERTION'] } };
      const conversation = playGolden(task, retail.newEnvironment());
      const context = { newEnvironment: () => retail.newEnvironment() };
      const without = await evaluateConversation(task, conversation.messages, 'user_stop', context);
      expect(without.reward).toBeNull();
      expect(without.criteria.find((c) => c.criterion === 'NL_ASSERTION')?.reason).toBe('not graded: no judge model is configured');
      const graded = await evaluateConversation(task, conversation.messages, 'user_stop', { ...context, judge });
      expect(graded.reward).toBe(1);
      expect(graded.nlAssertions).toEqual([{ assertion: 'Agent greets', met: true, justification: 'it said hi' }]);
      const sent = server.requests.at(-1)?.body as { messages: { role: string; content: string }[] };
      expect(sent.messages).toEqual([
        { role: 'system', content: NL_JUDGE_SYSTEM },
        { role: 'user', content: nlJudgeUserPrompt(conversation.messages, ['Agent greets']) },
      ]);
      expect(sent.messages[1]!.content).toContain("expectedOutcomes:\n        ['Agent greets']");
      const unreadable = await evaluateConversation(task, conversation.messages, 'user_stop', { ...context, judge });
      expect(unreadable.reward).toBeNull();
      expect(unreadable.criteria.find((c) => c.criterion === 'NL_ASSERTION')?.reason).toBe('not graded: the judge did not reply with the asked-for JSON');
    });
  });
});

describe('pass^k', () => {
  it("is τ²'s C(successes, k) / C(trials, k), averaged over tasks", () => {
    expect(passHatK(4, 2, 1)).toBe(0.5);
    expect(passHatK(4, 2, 2)).toBeCloseTo(1 / 6);
    expect(passHatK(4, 3, 4)).toBe(0);
    expect(() => passHatK(2, 1, 3)).toThrow(/at least 3 trials/);
    const ks = passHatKs(new Map([['a', [1, 1, 0, 1]], ['b', [0, 0, 1, null]]]));
    expect(ks).toHaveLength(4);
    expect(ks[0]).toBeCloseTo((3 / 4 + 1 / 4) / 2);
    expect(ks[3]).toBe(0);
  });
});
