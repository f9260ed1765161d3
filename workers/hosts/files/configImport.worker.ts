/// <reference lib="webworker" />
// Reads a large imported config file off the page's thread (configImport.ts sends it here): only a
// config that passed every check goes back, as the JSON value it was written as.

import { readConfig } from './readConfig.ts';

declare const self: DedicatedWorkerGlobalScope;

self.onmessage = (message: MessageEvent<{ text: string }>) => {
  self.postMessage(readConfig(message.data.text));
};
