/** Where an `anthropic` provider without a base URL sends its requests. */
export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
