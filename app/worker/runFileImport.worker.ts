/// <reference lib="webworker" />
// Reads an imported run file off the page's thread: the file is read and checked here, so a file
// of any size or shape (50 MB, deep nesting, a million events) never stalls the page. Only runs
// that passed every check go back.

import { MAX_RUN_FILE_BYTES, readRunFile, type ReadRunFileOutcome } from '../../workers/history/runFile.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = async (message: MessageEvent<{ file: File }>) => {
  const { file } = message.data;
  let reply: ReadRunFileOutcome;
  if (file.size > MAX_RUN_FILE_BYTES) {
    reply = {
      ok: false,
      problems: [`"${file.name}" is ${Math.round(file.size / 1048576)} MB; run files are read up to ${MAX_RUN_FILE_BYTES / 1048576} MB. Export fewer runs at a time.`],
    };
  } else {
    try {
      reply = readRunFile(await file.text());
    } catch (error) {
      reply = { ok: false, problems: [`"${file.name}" could not be read: ${(error as Error).message}`] };
    }
  }
  self.postMessage(reply);
};
