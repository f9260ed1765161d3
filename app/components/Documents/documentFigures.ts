// Sizes and counts as the Documents panel says them.

import { formatCount } from '../../format.ts';
export { formatFileSize } from '../../format.ts';
import type { StoredDocument } from '../../../tools/search/documentStore.ts';

export function plural(count: number, one: string, many = `${one}s`): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** "2 documents · 17 passages indexed", or that nothing is. */
export function describeIndexed(documents: readonly StoredDocument[]): string {
  if (documents.length === 0) return 'No documents indexed yet.';
  const passages = documents.reduce((sum, document) => sum + document.chunkCount, 0);
  return `${plural(documents.length, 'document')} · ${plural(passages, 'passage')} indexed`;
}
