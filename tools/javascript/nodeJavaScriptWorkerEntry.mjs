// Entry of the JavaScript sandbox's Node worker thread. Node 20 does not apply `--import tsx` inside
// worker threads, so the TypeScript worker is loaded through tsx's API instead (as the Python runner's is).
import { tsImport } from 'tsx/esm/api';

await tsImport('./nodeJavaScriptWorker.ts', import.meta.url);
