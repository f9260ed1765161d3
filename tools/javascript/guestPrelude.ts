// Runs inside QuickJS before the guest's code. It evaluates to a function that takes the host's
// `write(level, text)` and the call's input, installs `console` and `args`, and returns the two
// helpers the host needs afterwards. Everything it uses is captured here, before guest code can
// replace a built-in; the host function stays inside the closure, out of the guest's reach.

/** The file name guest code runs under; error stacks keep only the frames that mention it. */
export const GUEST_FILE_NAME = 'code.js';

export const GUEST_PRELUDE = String.raw`(function (write, inputJson, hasInput) {
  'use strict';
  const stringify = JSON.stringify;
  const parseJson = JSON.parse;
  const toText = String;
  const ErrorClass = Error;
  const isFiniteNumber = Number.isFinite;

  function logReplacer(key, value) {
    if (typeof value === 'bigint') return toText(value) + 'n';
    if (typeof value === 'function') return '[Function ' + (value.name || 'anonymous') + ']';
    if (typeof value === 'symbol') return toText(value);
    return value;
  }

  function show(value) {
    try {
      if (typeof value === 'string') return value;
      if (typeof value === 'bigint') return toText(value) + 'n';
      if (typeof value === 'function' || typeof value === 'symbol') return logReplacer('', value);
      if (value instanceof ErrorClass) return toText(value.name) + ': ' + toText(value.message);
      const text = value !== null && typeof value === 'object' ? stringify(value, logReplacer) : undefined;
      return text === undefined ? toText(value) : text;
    } catch (error) {
      try {
        return toText(value);
      } catch (again) {
        return '[unprintable value]';
      }
    }
  }

  function method(level) {
    return function () {
      let line = '';
      for (let i = 0; i < arguments.length; i++) line += (i === 0 ? '' : ' ') + show(arguments[i]);
      write(level, line);
    };
  }

  globalThis.console = {
    log: method('log'),
    info: method('info'),
    debug: method('debug'),
    warn: method('warn'),
    error: method('error'),
  };
  if (hasInput) globalThis.args = parseJson(inputJson);

  // [kind, text]: kind 'json' (text is the JSON), 'none' (undefined) or 'unsupported' (text says what it is).
  function toResult(value) {
    if (value === undefined) return ['none', ''];
    if (typeof value === 'function') return ['unsupported', 'a function' + (value.name ? ' (' + value.name + ')' : '')];
    if (typeof value === 'symbol') return ['unsupported', 'a symbol'];
    if (typeof value === 'bigint') return ['unsupported', 'a BigInt (' + toText(value) + 'n); return String(x) or Number(x) instead'];
    if (typeof value === 'number' && !isFiniteNumber(value)) return ['unsupported', 'the number ' + toText(value) + ', which JSON cannot represent'];
    let text;
    try {
      text = stringify(value);
    } catch (error) {
      const message = error instanceof ErrorClass ? toText(error.message) : toText(error);
      if (/circular/i.test(message)) return ['unsupported', 'an object with a circular reference'];
      if (/bigint/i.test(message)) return ['unsupported', 'an object containing a BigInt; convert BigInts with String(x) or Number(x)'];
      return ['unsupported', 'a value whose conversion to JSON failed (' + message + ')'];
    }
    if (typeof text !== 'string') return ['unsupported', 'a value JSON cannot represent'];
    return ['json', text];
  }

  function describeError(error) {
    if (!(error instanceof ErrorClass)) return 'Uncaught ' + show(error);
    const headline = toText(error.name) + ': ' + toText(error.message);
    const stack = typeof error.stack === 'string' ? error.stack : '';
    const lines = [];
    let previous = '';
    let repeats = 0;
    for (const frame of stack.split('\n')) {
      if (frame.indexOf('${GUEST_FILE_NAME}') === -1) continue;
      if (frame === previous) {
        repeats++;
        continue;
      }
      if (repeats > 0) lines.push('    (the frame above ' + repeats + ' more times)');
      if (lines.length >= 10) break;
      lines.push(frame);
      previous = frame;
      repeats = 0;
    }
    if (repeats > 0) lines.push('    (the frame above ' + repeats + ' more times)');
    return lines.length === 0 ? headline : headline + '\n' + lines.join('\n');
  }

  return { toResult: toResult, describeError: describeError };
})`;
