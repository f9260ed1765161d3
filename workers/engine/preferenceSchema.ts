// Checking an untrusted preference vector (a config file, a URL, a value kept in the browser)
// with zod. Apart from preferences.ts so that the playground's first screen, which only shows and
// edits a vector, does not load zod.

import type { PreferenceVector } from './preferences.ts';
import { z } from './zod.ts';

const weight = z.number().min(0).max(1);

export const preferenceSchema = z.strictObject({
  outcome: weight,
  cost: weight,
  latency: weight,
  tools: z.record(z.string().min(1), z.number().min(-1).max(1)).default({}),
}) satisfies z.ZodType<PreferenceVector, unknown>;

export type PreferenceValidation = { ok: true; value: PreferenceVector } | { ok: false; error: string };

/** Checks an untrusted value (a config file, a URL, an import) against `preferenceSchema`. */
export function validatePreference(input: unknown): PreferenceValidation {
  const result = preferenceSchema.safeParse(input);
  if (result.success) return { ok: true, value: result.data };
  const error = result.error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'preference'}: ${issue.message}`)
    .join('; ');
  return { ok: false, error };
}
