// A model answering a task alone, with no tools: the "strongest expert" and "cheapest expert"
// baselines on question suites. It is asked the way the paper protocol asks its answer experts
// (the same prompt, minus the gathered documents, which there are none of), and its answer is read
// the same way, so the baseline and the orchestrator's answer step differ only in what the
// orchestrator gathered first. Runs through the ordinary loop: one turn, one model call, one event
// stream and ledger like any run.

import type { Protocol, ProtocolSession, TurnOutcome } from '../../../engine/protocol.ts';
import type { AnswerStyle, PaperVariant } from '../../../engine/protocols/expertFamilies.ts';
import { answerMessages, extractAnswer } from '../../../engine/protocols/paper.ts';

export function createDirectAnswerProtocol(answerStyle: AnswerStyle, variant: PaperVariant): Protocol {
  return {
    name: 'direct',
    start(task: string): ProtocolSession {
      const messages = answerMessages(answerStyle, variant, '', task);
      return {
        name: 'direct',
        tools: () => [],
        messages: () => messages,
        async handleOutput(output): Promise<TurnOutcome> {
          const raw = output.completion.content;
          const answer = extractAnswer(answerStyle, raw);
          return { kind: 'done', stopReason: 'answered', answer };
        },
        restore(): void {
          throw new Error('a model answering alone has no steps to go on from');
        },
      };
    },
  };
}
