import { memo } from 'react';
import { clipForDisplay, formatCount, formatMs } from '../../format.ts';
import type { CallView } from '../../state/runView.ts';
import { Disclosure } from './Disclosure.tsx';
import { detailKey } from './traceUiStore.ts';
import {  } from './useTraceUi.ts';
import { ErrorNotice } from './ErrorNotice.tsx';
import { ResultView } from './ResultView.tsx';
import { RetryNotice } from './RetryNotice.tsx';
import { entriesCost, formatArguments, formatSpeeds, formatTokens, sumTokens } from './summary.ts';

interface ToolCallCardProps {
  call: CallView;
  runStartedAt: string;
  /** The run is still going (a call without a result is then in progress). */
  runActive: boolean;
}

/** One tool call: what was called with what, the expert's work while it runs, and the result. */
export const ToolCallCard = memo(function ToolCallCard({ call, runStartedAt, runActive }: ToolCallCardProps) {
  const inProgress = runActive && !call.result;
  const args = formatArguments(call.arguments);
  const tokens = formatTokens(sumTokens(call.costs));
  const cost = entriesCost(call.costs);
  const expertText = [call.reasoning, call.content].filter(Boolean).join('\n\n');
  const label = call.alias ? `${call.name} → ${call.alias}` : call.name;
  return (
    <div className={`call${call.parentCallId ? ' nested' : ''}${call.result && !call.result.ok ? ' failed' : ''}`} role="group" aria-label={`Call ${label}`}>
      <div className="call-head">
        <span className="call-name">{call.name}</span>
        {call.alias ? <span className="alias-chip">{call.alias}</span> : null}
        {call.model ? <span className="call-model">{call.model}</span> : null}
        <span className="call-metrics">
          {inProgress ? <span className="running-dot">running</span> : null}
          {call.result ? <span>{formatMs(call.result.latencyMs)}</span> : null}
          {tokens ? <span>{tokens}</span> : null}
          {formatSpeeds(call.costs) ? <span>{formatSpeeds(call.costs)}</span> : null}
          {cost ? (
            <span className={cost.estimated ? 'estimate-figure' : undefined} title={cost.estimated ? 'Estimated' : 'Measured'}>
              {cost.text}
            </span>
          ) : null}
        </span>
      </div>
      <div className="call-args">
        <span className="section-label">Arguments</span>
        {args.multiline ? <pre className="json">{clipForDisplay(args.text)}</pre> : <code className="json">{clipForDisplay(args.text)}</code>}
      </div>
      {call.retries.map((retry, i) => (
        <RetryNotice key={i} retry={retry} runStartedAt={runStartedAt} live={inProgress && i === call.retries.length - 1} />
      ))}
      {expertText ? (
        <Disclosure
          detailKey={detailKey(call.callId, 'reply')}
          label={inProgress ? `${call.alias ?? 'The expert'} is writing` : `${call.alias ?? 'Expert'}'s reasoning and reply`}
          meta={`${formatCount(expertText.length)} chars`}
          openByDefault={inProgress}
          className="expert-output"
        >
          {call.reasoning ? <p className="reasoning-text">{clipForDisplay(call.reasoning)}</p> : null}
          {call.content ? <pre className="stream">{clipForDisplay(call.content)}</pre> : null}
        </Disclosure>
      ) : null}
      {call.errors.map((error, i) => (
        <ErrorNotice key={i} error={error} />
      ))}
      {call.result ? <ResultView result={call.result} argumentCode={call.arguments.code} /> : null}
    </div>
  );
});
