import type { QuickJSContext, QuickJSHandle, QuickJSRuntime, QuickJSWASMModule } from 'quickjs-emscripten-core';
import { formatSeconds } from '../../workers/engine/format.ts';
import { cutMiddle, cutNote, MAX_ERROR_CHARS } from '../sandbox/cutText.ts';
import { GUEST_FILE_NAME, GUEST_PRELUDE } from './guestPrelude.ts';
import type { SandboxLimits, SandboxRunResult } from './types.ts';
import type { JsonValue } from '../../workers/engine/ports.ts';

// Evaluates one piece of untrusted code in a fresh QuickJS runtime and context. Pure: it needs
// only a QuickJS module, so it runs the same in a Web Worker and under Node. The guest sees the
// ECMAScript built-ins, `console` and (when given) `args`; nothing of the host.

export interface SandboxRunInput {
  limits: SandboxLimits;
  /** JSON text handed to the guest as the global `args`; absent: `args` is not defined. */
  inputJson?: string;
}

interface Helpers {
  toResult: QuickJSHandle;
  describeError: QuickJSHandle;
}

export function runInQuickJS(module: QuickJSWASMModule, code: string, input: SandboxRunInput): SandboxRunResult {
  const { limits } = input;
  const startedAt = performance.now();
  const output = new CappedOutput(limits.maxOutputChars);
  let interrupted = false;

  let runtime: QuickJSRuntime | undefined;
  let context: QuickJSContext | undefined;
  const finish = (outcome: Outcome): SandboxRunResult => ({
    value: outcome.value,
    logs: output.text(),
    // Capped here, in the sandbox's worker: a guest that throws 8 MB of text sends no more than this.
    error: interrupted
      ? `Stopped: the code ran longer than ${formatSeconds(limits.timeoutMs)}.`
      : outcome.error === null
        ? null
        : cutMiddle(outcome.error, MAX_ERROR_CHARS),
    timedOut: interrupted,
    durationMs: performance.now() - startedAt,
    truncated: output.truncated,
    crashed: outcome.crashed ?? false,
  });

  let result: SandboxRunResult;
  try {
    runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.maxStackBytes);
    context = runtime.newContext();
    const onInterrupt = () => {
      interrupted = true;
    };
    result = finish(evaluateWithPrelude(context, runtime, code, input.inputJson, output, limits, onInterrupt));
  } catch (thrown) {
    // Not the guest's error: QuickJS itself trapped (the host's stack, a wasm fault). Its state
    // is torn mid-operation, so it is not even disposed: the caller drops the whole module.
    return finish({ error: crashMessage(thrown), crashed: true });
  }
  try {
    context?.dispose();
    runtime?.dispose();
  } catch {
    // QuickJS refused to free a runtime that still holds objects: drop the module all the same.
    result.crashed = true;
  }
  return result;
}

/** Installs `console` and `args`, starts the clock, runs the guest's code. */
function evaluateWithPrelude(
  context: QuickJSContext,
  runtime: QuickJSRuntime,
  code: string,
  inputJson: string | undefined,
  output: CappedOutput,
  limits: SandboxLimits,
  onInterrupt: () => void,
): Outcome {
  const helpers = installPrelude(context, inputJson, output);
  if ('error' in helpers) return helpers;
  // The clock starts with the guest's code: the prelude is ours and bounded.
  const deadline = performance.now() + limits.timeoutMs;
  runtime.setInterruptHandler(() => {
    if (performance.now() < deadline) return false;
    onInterrupt();
    return true;
  });
  try {
    return evaluate(context, runtime, helpers, code, limits);
  } finally {
    helpers.toResult.dispose();
    helpers.describeError.dispose();
  }
}

function crashMessage(thrown: unknown): string {
  if (thrown instanceof RangeError && /call stack/i.test(thrown.message)) {
    return "Stopped: the code nested too deeply (deep recursion or deeply nested data) and exhausted the sandbox's stack.";
  }
  return `The JavaScript sandbox crashed: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
}

interface Outcome {
  value?: JsonValue;
  error: string | null;
  crashed?: boolean;
}

function evaluate(
  context: QuickJSContext,
  runtime: QuickJSRuntime,
  helpers: Helpers,
  code: string,
  limits: SandboxLimits,
): Outcome {
  const program = chooseProgram(context, code);
  if ('syntaxError' in program) return { error: describe(context, helpers, program.syntaxError, limits) };

  const evaluated = context.evalCode(program.source, GUEST_FILE_NAME, { type: 'global' });
  if (evaluated.error) return { error: describe(context, helpers, evaluated.error, limits) };
  const settled = settle(context, runtime, evaluated.value);
  if ('error' in settled) {
    return { error: settled.error === null ? NEVER_SETTLED : describe(context, helpers, settled.error, limits) };
  }
  return convert(context, helpers, settled.value, limits);
}

const NEVER_SETTLED =
  'The code returned a promise that never settled. Nothing can resolve it later: there are no timers, network or events here.';

function installPrelude(context: QuickJSContext, inputJson: string | undefined, output: CappedOutput): Helpers | Outcome {
  const prelude = context.evalCode(GUEST_PRELUDE, 'prelude.js', { type: 'global', strict: true });
  if (prelude.error) return { error: `The JavaScript sandbox could not start: ${consumeMessage(context, prelude.error)}` };
  const write = context.newFunction('write', (level, text) => {
    output.write(context.getString(level), context.getString(text));
  });
  const inputText = context.newString(inputJson ?? '');
  const hasInput = inputJson === undefined ? context.false : context.true;
  try {
    const called = context.callFunction(prelude.value, context.undefined, write, inputText, hasInput);
    if (called.error) return { error: `The input could not be handed to the code: ${consumeMessage(context, called.error)}` };
    try {
      return { toResult: context.getProp(called.value, 'toResult'), describeError: context.getProp(called.value, 'describeError') };
    } finally {
      called.value.dispose();
    }
  } finally {
    prelude.value.dispose();
    write.dispose();
    inputText.dispose();
  }
}

/** The message of an error raised by our own prelude (out of memory, bad input). */
function consumeMessage(context: QuickJSContext, error: QuickJSHandle): string {
  try {
    const dumped: unknown = context.dump(error);
    if (typeof dumped === 'object' && dumped !== null && 'message' in dumped) return String(dumped.message);
    return String(dumped);
  } finally {
    error.dispose();
  }
}

/** The code as written when it compiles as a script (its last expression is the result);
 * otherwise wrapped in an async function, so `return` and top-level `await` work. */
function chooseProgram(context: QuickJSContext, code: string): { source: string } | { syntaxError: QuickJSHandle } {
  const asScript = context.evalCode(code, GUEST_FILE_NAME, { type: 'global', compileOnly: true });
  if (!asScript.error) {
    asScript.value.dispose();
    return { source: code };
  }
  // The wrapper starts on the code's first line so line numbers in errors stay right.
  const wrapped = `(async () => {${code}\n})()`;
  const asFunction = context.evalCode(wrapped, GUEST_FILE_NAME, { type: 'global', compileOnly: true });
  if (asFunction.error) {
    asFunction.error.dispose();
    return { syntaxError: asScript.error };
  }
  asFunction.value.dispose();
  asScript.error.dispose();
  return { source: wrapped };
}

/** Runs the promise jobs the code queued and unwraps a promise result. `error: null` means the
 * promise is still pending. Takes ownership of `value`. */
function settle(
  context: QuickJSContext,
  runtime: QuickJSRuntime,
  value: QuickJSHandle,
): { value: QuickJSHandle } | { error: QuickJSHandle | null } {
  const jobs = runtime.executePendingJobs();
  // A job's own failure lands in the promise it belongs to; only the interrupt flag matters here.
  if (jobs.error) jobs.error.dispose();
  const state = context.getPromiseState(value);
  if (state.type === 'fulfilled' && state.notAPromise) return { value };
  value.dispose();
  if (state.type === 'fulfilled') return { value: state.value };
  if (state.type === 'rejected') return { error: state.error };
  return { error: null };
}

/** Turns the guest's result into JSON inside the guest. Takes ownership of `value`. */
function convert(
  context: QuickJSContext,
  helpers: Helpers,
  value: QuickJSHandle,
  limits: SandboxLimits,
): { value?: JsonValue; error: string | null } {
  const called = context.callFunction(helpers.toResult, context.undefined, value);
  value.dispose();
  if (called.error) return { error: describe(context, helpers, called.error, limits) };
  const [kind, text] = readPair(context, called.value);
  called.value.dispose();
  if (kind === 'none') return { error: null };
  if (kind !== 'json') {
    return { error: `The code's result is ${text}; only JSON data (objects, arrays, strings, numbers, booleans, null) can be returned.` };
  }
  if (text.length > limits.maxResultChars) {
    return {
      error: `The code's result is ${text.length} characters of JSON, more than the ${limits.maxResultChars}-character limit; return something smaller.`,
    };
  }
  return { value: JSON.parse(text) as JsonValue, error: null };
}

function readPair(context: QuickJSContext, pair: QuickJSHandle): [string, string] {
  const read = (index: number) => {
    const item = context.getProp(pair, index);
    try {
      return context.typeof(item) === 'string' ? context.getString(item) : '';
    } finally {
      item.dispose();
    }
  };
  return [read(0), read(1)];
}

/** Words for a thrown guest value, with the limits named when one of them was hit. Takes
 * ownership of `error`. */
function describe(context: QuickJSContext, helpers: Helpers, error: QuickJSHandle, limits: SandboxLimits): string {
  let text: string | null = null;
  try {
    const called = context.callFunction(helpers.describeError, context.undefined, error);
    if (called.error) called.error.dispose();
    else {
      if (context.typeof(called.value) === 'string') text = context.getString(called.value);
      called.value.dispose();
    }
  } finally {
    error.dispose();
  }
  if (text === null) return 'The code threw an error that could not be read (the sandbox was out of memory or time).';
  if (text.startsWith('InternalError: out of memory')) {
    return `Stopped: the code ran out of memory (the limit is ${formatMebibytes(limits.memoryBytes)}).\n${text}`;
  }
  if (text.startsWith('InternalError: stack overflow')) {
    return `Stopped: the call stack overflowed (too deep recursion; the stack is limited to ${Math.round(limits.maxStackBytes / 1024)} KiB).\n${text}`;
  }
  return text;
}

function formatMebibytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}

/** Console lines up to a character cap; past it, the rest is counted, not kept, and `truncated` set. */
class CappedOutput {
  private readonly parts: string[] = [];
  private length = 0;
  private omitted = 0;
  truncated = false;

  constructor(private readonly maxChars: number) {}

  write(level: string, text: string): void {
    const line = (level === 'warn' || level === 'error' ? `[${level}] ${text}` : text) + '\n';
    if (this.truncated) {
      this.omitted += line.length;
      return;
    }
    const room = this.maxChars - this.length;
    if (line.length > room) {
      this.parts.push(line.slice(0, room));
      this.length = this.maxChars;
      this.omitted += line.length - room;
      this.truncated = true;
      return;
    }
    this.parts.push(line);
    this.length += line.length;
  }

  /** What was kept, and when something was cut a last line saying how much. */
  text(): string {
    const kept = this.parts.join('');
    if (!this.truncated) return kept;
    return `${kept}${kept.endsWith('\n') ? '' : '\n'}${cutNote(this.omitted, 'characters')}\n`;
  }
}
