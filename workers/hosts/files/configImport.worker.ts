/// <reference lib="webworker" />
// Reads an imported config file off the page's thread (configImport.ts sends it here): only a
// config that passed every check goes back, as the JSON value it was written as.

import { serveRequests } from '../requests.ts';
import { readConfig, type ConfigImportRequests } from './readConfig.ts';

declare const self: DedicatedWorkerGlobalScope;

const serve = serveRequests<ConfigImportRequests>({ read_config: ({ text }) => readConfig(text) }, (reply) => self.postMessage(reply));
self.onmessage = (message) => serve(message.data);
