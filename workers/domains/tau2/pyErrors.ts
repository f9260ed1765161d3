// A Python exception raised by a ported τ² tool: its class and the text `str(e)` gives, which τ²
// shows the agent as `Error: {e}` (environment.py, get_response). Pure TypeScript.

import { strRepr } from './pyValues.ts';

export type PyErrorType =
  | 'ValueError'
  | 'TypeError'
  | 'KeyError'
  | 'IndexError'
  | 'AttributeError'
  | 'AssertionError'
  | 'ValidationError'
  | 'ZeroDivisionError'
  | 'OverflowError'
  | 'SyntaxError'
  | 'RecursionError';

export class PyError extends Error {
  override name = 'PyError';
  constructor(
    readonly pyType: PyErrorType,
    /** What `str(e)` prints. */
    readonly text: string,
  ) {
    super(`${pyType}: ${text}`);
  }
}

export const valueError = (text: string) => new PyError('ValueError', text);
export const typeError = (text: string) => new PyError('TypeError', text);
/** `str(KeyError(key))` is the key's repr. */
export const keyError = (key: string) => new PyError('KeyError', strRepr(key));
export const attributeError = (typeName: string, attribute: string) => new PyError('AttributeError', `'${typeName}' object has no attribute '${attribute}'`);
/** A bare `assert` that failed: `str(e)` is empty. */
export const assertionError = () => new PyError('AssertionError', '');
