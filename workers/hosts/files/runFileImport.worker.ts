/// <reference lib="webworker" />
// Reads an imported run file off the page's thread: the file is read and checked here, so a file
// of any size or shape (50 MB, deep nesting, a million events) never stalls the page. Only runs
// that passed every check go back.

import { readRunFile, runFileSizeProblem, type ReadRunFileOutcome } from '../../history/runFile.ts';
import { parseConfig } from '../config.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (message: MessageEvent<{ file: File }>) => {
  const { file } = message.data;
  let reply: ReadRunFileOutcome;
  const tooLarge = runFileSizeProblem(file.size);
  if (tooLarge) {
    reply = { ok: false, problems: [tooLarge] };
  } else {
    try {
      reply = readRunFile(await file.text(), parseConfig);
    } catch (error) {
      reply = { ok: false, problems: [`"${file.name}" could not be read: ${(error as Error).message}`] };
    }
  }
  self.postMessage(reply);
};
