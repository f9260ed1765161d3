// Entry of the Node worker thread. Node 20 does not apply `--import tsx` inside worker
// threads, so the TypeScript worker is loaded through tsx's API instead.
import { tsImport } from 'tsx/esm/api';

await tsImport('./nodePyodideWorker.ts', import.meta.url);
