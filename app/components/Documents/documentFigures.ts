// Sizes and counts as the Documents panel says them.

import { formatCount } from '../../format.ts';
import type { StoredDocument } from '../../../tools/search/documentStore.ts';

/** A file size: "812 B", "14 kB", "2.3 MB" (decimal units, as file managers show them). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${Math.max(0, Math.round(bytes))} B`;
  if (bytes < 1e6) return `${Math.round(bytes / 1e3)} kB`;
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "2 documents · 17 passages indexed", or that nothing is. */
export function describeIndexed(documents: readonly StoredDocument[]): string {
  if (documents.length === 0) return 'No documents indexed yet.';
  const passages = documents.reduce((sum, document) => sum + document.chunkCount, 0);
  return `${plural(documents.length, 'document')} · ${plural(passages, 'passage')} indexed`;
}
