// A model answering a task alone, with no tools: the "strongest expert" and "cheapest expert"
// baselines on question suites. It is asked the way the paper protocol asks its answer experts
// (the same prompt, minus the gathered documents, which there are none of), and its answer is read
// the same way, so the baseline and the orchestrator's answer step differ only in what the
// orchestrator gathered first. Runs through the ordinary loop: one turn, one model call, one event
// stream and ledger like any run.

import type { Protocol, ProtocolSession, TurnOutcome } from '../protocol.ts';
import { BOXED_SYSTEM_PROMPT, extractBoxed, extractTaggedAnswer, TAGGED_ANSWER_INSTRUCTION } from '../protocols/paper.ts';
import type { ChatMessage } from '../types.ts';

export function createDirectAnswerProtocol(answerStyle: 'boxed' | 'tagged'): Protocol {
  return {
    name: 'direct',
    start(task: string): ProtocolSession {
      const problem = `Problem:\n${task}`;
      const messages: ChatMessage[] =
        answerStyle === 'boxed'
          ? [
              { role: 'system', content: BOXED_SYSTEM_PROMPT },
              { role: 'user', content: problem },
            ]
          : [{ role: 'user', content: `${problem}\n${TAGGED_ANSWER_INSTRUCTION}` }];
      return {
        name: 'direct',
        tools: () => [],
        messages: () => messages,
        async handleOutput(output): Promise<TurnOutcome> {
          const raw = output.completion.content;
          const answer = answerStyle === 'boxed' ? extractBoxed(raw) : extractTaggedAnswer(raw);
          return { kind: 'done', stopReason: 'answered', answer };
        },
      };
    },
  };
}
