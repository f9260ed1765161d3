import { useState, type ReactNode } from 'react';
import { formatMs } from '../../format.ts';
import type { ToolResultView } from '../../state/runView.ts';
import { searchSourceLabel } from '../../../tools/search/searchSources.ts';
import { readDetail, type DocumentHit, type RowDiff, type SourceProblem } from './detail.ts';

/** What a tool call produced: documents, code and its output, an answer, or its text. */
export function ResultView({ result, argumentCode }: { result: ToolResultView; argumentCode?: unknown }) {
  const detail = readDetail(result.detail, argumentCode);
  const failure = result.ok ? null : (result.error ?? result.content);
  return (
    <div className="call-result">
      {failure ? <p className="result-failure">{failure}</p> : null}
      {detail.kind === 'documents' ? (
        <Documents query={detail.query} documents={detail.documents} added={detail.added} problems={detail.problems ?? []} />
      ) : detail.kind === 'code' ? (
        <>
          <Block label="Code">
            <pre className="code">{detail.code || '(no code)'}</pre>
          </Block>
          <Block label={detail.durationMs === null ? 'Output' : `Output · ran ${formatMs(detail.durationMs)}`}>
            <pre className="code-output">{detail.stdout || '(no output)'}</pre>
            {detail.stderr ? <pre className="code-stderr">{detail.stderr}</pre> : null}
            {detail.truncated ? <p className="muted small">The output was cut at the size limit.</p> : null}
          </Block>
          {detail.error && detail.error !== failure ? <pre className="code-stderr">{detail.error}</pre> : null}
        </>
      ) : detail.kind === 'answer' ? (
        <Block label="Expert's answer">
          <p className="expert-answer">{detail.answer || '(empty)'}</p>
        </Block>
      ) : detail.kind === 'unusable' ? (
        <Block label={`What the expert wrote (no usable ${detail.wanted})`}>
          <pre>{detail.raw || '(nothing)'}</pre>
        </Block>
      ) : detail.kind === 'domain' ? (
        <>
          <DatabaseChanges changes={detail.changes} more={detail.more} />
          {detail.result !== null ? (
            <Block label="Result">
              <pre>{detail.result}</pre>
            </Block>
          ) : null}
          {detail.error && detail.error !== failure ? <p className="result-failure">{detail.error}</p> : null}
        </>
      ) : detail.kind === 'json' ? (
        <Block label="Result">
          <pre>{detail.text}</pre>
        </Block>
      ) : failure ? null : (
        <Block label="Result">
          <pre>{result.content || '(empty)'}</pre>
        </Block>
      )}
    </div>
  );
}

function Block({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="result-block">
      <span className="section-label">{label}</span>
      {children}
    </div>
  );
}

const OP_LABEL: Record<RowDiff['op'], string> = { insert: 'added', update: 'changed', delete: 'deleted' };

/** The rows a domain tool call touched, each field before and after. */
function DatabaseChanges({ changes, more }: { changes: RowDiff[]; more: number }) {
  if (changes.length === 0) {
    return (
      <Block label="Database">
        <p className="muted small">No rows changed.</p>
      </Block>
    );
  }
  return (
    <Block label={`Database · ${changes.length + more} row${changes.length + more === 1 ? '' : 's'} changed`}>
      <div className="db-changes" aria-label="Database changes">
        {changes.map((change) => (
          <table key={`${change.table}/${change.id}`} className="db-change" aria-label={`${change.table}/${change.id}`}>
            <caption>
              {change.table}/{change.id} <span className={`db-op db-op-${change.op}`}>{OP_LABEL[change.op]}</span>
            </caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Before</th>
                <th scope="col">After</th>
              </tr>
            </thead>
            <tbody>
              {change.fields.map((field) => (
                <tr key={field.name}>
                  <th scope="row">{field.name}</th>
                  <td className="db-before">{field.before}</td>
                  <td className="db-after">{field.after}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
        {more > 0 ? <p className="muted small">{more} more rows not shown.</p> : null}
      </div>
    </Block>
  );
}

function Documents({
  query,
  documents,
  added,
  problems,
}: {
  query: string;
  documents: DocumentHit[];
  added: number | null;
  problems: SourceProblem[];
}) {
  const found = `${documents.length} document${documents.length === 1 ? '' : 's'}`;
  return (
    <div className="result-block">
      <p className="search-line">
        <span className="section-label">Search</span> <q className="search-query">{query}</q>{' '}
        <span className="muted">
          → {found}
          {added !== null ? `, ${added} new` : ''}
        </span>
      </p>
      {problems.map((problem) => (
        <p key={problem.source} className="search-problem">
          {searchSourceLabel(problem.source)} was not searched: {problem.message}
        </p>
      ))}
      {documents.length > 0 ? (
        <ol className="documents" aria-label="Documents">
          {documents.map((doc) => (
            <DocumentItem key={doc.id} doc={doc} />
          ))}
        </ol>
      ) : null}
    </div>
  );
}

const PREVIEW_CHARS = 160;

function DocumentItem({ doc }: { doc: DocumentHit }) {
  const [full, setFull] = useState(false);
  const long = doc.text.length > PREVIEW_CHARS;
  return (
    <li className="document">
      <div className="document-head">
        <span className="document-title">{doc.title}</span>
        {doc.source ? <span className="document-source">{searchSourceLabel(doc.source)}</span> : null}
        {doc.score !== null ? <span className="document-score">score {doc.score.toFixed(1)}</span> : null}
      </div>
      <p className="document-text">
        {full || !long ? doc.text : `${doc.text.slice(0, PREVIEW_CHARS).trimEnd()}…`}
        {long ? (
          <>
            {' '}
            <button type="button" className="link-button" aria-expanded={full} onClick={() => setFull(!full)}>
              {full ? 'less' : 'more'}
            </button>
          </>
        ) : null}
      </p>
    </li>
  );
}
