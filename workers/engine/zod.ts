// zod as the engine uses it: `jitless`, so zod never probes `new Function` to compile its parsers.
// The app's Content-Security-Policy refuses code from strings (server/securityHeaders.ts), and
// Chromium reports even a caught attempt as a violation; the schemas here are small either way.
import { z } from 'zod';

z.config({ jitless: true });

export { z };
