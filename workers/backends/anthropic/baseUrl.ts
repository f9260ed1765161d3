/** Where an `anthropic` provider without a base URL sends its requests. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';

/** The base URL without a trailing slash or /v1: the paths are written after it. */
export function anthropicOrigin(baseUrl: string | undefined): string {
  return (baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, '').replace(/\/v1$/, '');
}

/** What every browser call to Anthropic sends besides its key. */
export const ANTHROPIC_BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'anthropic-version': '2023-06-01',
  // Anthropic refuses browser (CORS) calls without this opt-in; keys stay in the user's browser.
  'anthropic-dangerous-direct-browser-access': 'true',
};
