// The one way code here loads web-llm at run time. Each worker is its own build; when both the
// orchestrator worker and the model worker import the whole package dynamically (the namespace
// escapes this function, so no build drops any of its exports), both builds emit the same chunk,
// with the same hashed file name, and the browser downloads web-llm's 2.2 MB (gzip) once, not
// once per worker. `npm run bench -- --only bundle` checks that the build holds one copy.

export type WebLlm = typeof import('@mlc-ai/web-llm');

export function loadWebLlm(): Promise<WebLlm> {
  return import('@mlc-ai/web-llm');
}
