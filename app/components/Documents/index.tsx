import { useEffect, useRef, useState, type DragEvent } from 'react';
import { createDocuments } from './documentsClient.ts';
import { describeIndexed, formatFileSize, plural } from './documentFigures.ts';
import { usePart, useSelected } from '../../state/context.tsx';
import { SearchSources } from './SearchSources.tsx';
import type { DocumentProblemView } from './documentsStore.ts';
import type { StoredDocument } from '../../../tools/search/documentStore.ts';
import './Documents.css';

const ACCEPT = '.txt,.text,.md,.markdown,.pdf,text/plain,text/markdown,application/pdf';
const KIND_LABELS = { text: 'text', markdown: 'Markdown', pdf: 'PDF' } as const;

/** The user's own documents: added by button or drop, read and indexed off this thread, kept in
 * this browser (IndexedDB) and searched when the config's search uses them. */
export function DocumentsPanel() {
  const documentsClient = usePart(createDocuments);
  const loaded = useSelected(documentsClient.store, (state) => state.loaded);
  const documents = useSelected(documentsClient.store, (state) => state.documents);
  const indexing = useSelected(documentsClient.store, (state) => state.indexing);
  const problems = useSelected(documentsClient.store, (state) => state.problems);
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);

  useEffect(() => documentsClient.list(), [documentsClient]);

  const onDragOver = (event: DragEvent) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    documentsClient.add([...event.dataTransfer.files]);
  };

  return (
    <section
      className="panel documents-panel"
      aria-labelledby="documents-heading"
      id="documents"
      data-dragging={dragging || undefined}
      onDragOver={onDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h2 id="documents-heading">Documents</h2>
      <p className="muted">Text, Markdown and PDF files for the search tool to find passages in. They stay in this browser.</p>
      <div className="documents-add">
        <button type="button" onClick={() => input.current?.click()}>
          Add documents
        </button>
        <span className="muted">or drop files here</span>
        <input
          ref={input}
          type="file"
          multiple
          accept={ACCEPT}
          className="visually-hidden"
          tabIndex={-1}
          aria-label="Documents to add"
          onChange={(event) => {
            documentsClient.add([...(event.target.files ?? [])]);
            event.target.value = '';
          }}
        />
      </div>
      <p className="documents-count" role="status" aria-label="Documents indexed">
        {loaded ? describeIndexed(documents) : 'Reading the stored documents…'}
        {indexing.length > 0 ? <span className="muted"> · reading {indexing.join(', ')}…</span> : null}
      </p>
      <Problems problems={problems} onDismiss={documentsClient.store.actions.dismissProblem} />
      <DocumentList documents={documents} onRemove={(id) => documentsClient.remove(id)} />
      <SearchSources />
    </section>
  );
}

/** The files that could not be added, and why, each until dismissed. */
function Problems({ problems, onDismiss }: { problems: DocumentProblemView[]; onDismiss(id: number): void }) {
  if (problems.length === 0) return null;
  return (
    <ul className="documents-problems" aria-label="Documents not added">
      {problems.map((problem) => (
        <li key={problem.id} role="alert">
          <span>
            {problem.fileName ? <strong>{problem.fileName}: </strong> : null}
            {problem.message}
          </span>{' '}
          <button type="button" onClick={() => onDismiss(problem.id)}>
            Dismiss
          </button>
        </li>
      ))}
    </ul>
  );
}

function DocumentList({ documents, onRemove }: { documents: StoredDocument[]; onRemove(id: string): void }) {
  if (documents.length === 0) return null;
  return (
    <ul className="documents-list" aria-label="Your documents">
      {documents.map((document) => (
        <li key={document.id}>
          <span className="documents-item-text">
            <span className="documents-name">{document.name}</span>{' '}
            <span className="muted documents-meta">
              {KIND_LABELS[document.kind]} · {formatFileSize(document.sizeBytes)} · {plural(document.chunkCount, 'passage')}
            </span>
          </span>{' '}
          <button type="button" aria-label={`Remove ${document.name}`} onClick={() => onRemove(document.id)}>
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
