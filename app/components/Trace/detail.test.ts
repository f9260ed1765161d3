import { describe, expect, it } from 'vitest';
import { readDetail } from './detail.ts';

describe('readDetail', () => {
  it('reads a search: the query, the documents and how many were new', () => {
    const detail = {
      query: 'capital of Finland population',
      documents: [
        { id: 'city-helsinki', title: 'Helsinki', text: 'Helsinki is the capital of Finland.', score: 12.5 },
        { id: 'country-fin', title: 'Finland', text: 'Finland is a Nordic country.', score: 7 },
      ],
      added: 2,
    };
    expect(readDetail(detail)).toEqual({
      kind: 'documents',
      query: 'capital of Finland population',
      documents: [
        { id: 'city-helsinki', title: 'Helsinki', text: 'Helsinki is the capital of Finland.', score: 12.5 },
        { id: 'country-fin', title: 'Finland', text: 'Finland is a Nordic country.', score: 7 },
      ],
      added: 2,
    });
  });

  it('skips malformed documents and reads a function-calling search (no `added`)', () => {
    const read = readDetail({ query: 'x', documents: [null, { title: 'Only a title' }, 'text'] });
    expect(read).toEqual({ kind: 'documents', query: 'x', documents: [{ id: 'doc-1', title: 'Only a title', text: '', score: null }], added: null });
  });

  it('reads a code run, taking the code from the arguments when the detail has none', () => {
    const run = { stdout: '558.5\n', stderr: '', error: null, timedOut: false, aborted: false, durationMs: 840, truncated: false };
    expect(readDetail({ code: 'print(558.5)', ...run })).toMatchObject({ kind: 'code', code: 'print(558.5)', stdout: '558.5\n', durationMs: 840 });
    expect(readDetail(run, 'print(1)')).toMatchObject({ kind: 'code', code: 'print(1)', error: null, timedOut: false });
    expect(readDetail({ ...run, error: 'NameError: x', timedOut: true })).toMatchObject({ error: 'NameError: x', timedOut: true });
  });

  it('reads an answer and an expert that wrote nothing usable', () => {
    expect(readDetail({ answer: '558,457', raw: '<answer>558,457</answer>' })).toEqual({
      kind: 'answer',
      answer: '558,457',
      raw: '<answer>558,457</answer>',
    });
    expect(readDetail({ query: '', raw: 'I think…' })).toEqual({ kind: 'unusable', wanted: 'query', raw: 'I think…' });
    expect(readDetail({ code: '', raw: 'no code' })).toEqual({ kind: 'unusable', wanted: 'code', raw: 'no code' });
  });

  it('shows anything else as JSON, and nothing as nothing', () => {
    expect(readDetail(undefined)).toEqual({ kind: 'none' });
    expect(readDetail(null)).toEqual({ kind: 'none' });
    expect(readDetail({ temperature: 21 })).toEqual({ kind: 'json', text: '{\n  "temperature": 21\n}' });
    expect(readDetail([1, 2])).toEqual({ kind: 'json', text: '[\n  1,\n  2\n]' });
    expect(readDetail('plain')).toEqual({ kind: 'json', text: '"plain"' });
  });

  it('reads a domain call: each row it touched, field by field, before and after; hostile rows left out', () => {
    const detail = {
      kind: 'domain',
      domain: 'retail',
      tool: 'cancel_order',
      changes: [
        { table: 'orders', id: 'O-5001', op: 'update', before: { status: 'pending', cancel_reason: null }, after: { status: 'cancelled', cancel_reason: 'ordered_by_mistake' }, fields: ['cancel_reason', 'status'] },
        { table: 'notes', id: 'N-1', op: 'insert', before: null, after: { text: 'x'.repeat(300) }, fields: ['text'] },
        { table: 7, id: 'bad' },
        '<img src=x>',
      ],
      result: { order_id: 'O-5001', status: 'cancelled' },
    };
    const read = readDetail(detail);
    expect(read).toMatchObject({ kind: 'domain', tool: 'cancel_order', more: 0, error: null, result: '{\n  "order_id": "O-5001",\n  "status": "cancelled"\n}' });
    if (read.kind !== 'domain') throw new Error('not a domain call');
    expect(read.changes).toHaveLength(2);
    expect(read.changes[0]).toEqual({
      table: 'orders',
      id: 'O-5001',
      op: 'update',
      fields: [
        { name: 'cancel_reason', before: 'null', after: '"ordered_by_mistake"' },
        { name: 'status', before: '"pending"', after: '"cancelled"' },
      ],
    });
    // An inserted row has no before; a long value is cut.
    expect(read.changes[1]?.fields[0]?.before).toBe('—');
    expect(read.changes[1]?.fields[0]?.after).toHaveLength(201);
    // A refused call: no rows, its reason.
    expect(readDetail({ kind: 'domain', tool: 'cancel_order', changes: [], error: 'The order has shipped.' })).toEqual({ kind: 'domain', tool: 'cancel_order', changes: [], more: 0, result: null, error: 'The order has shipped.' });
  });
});
