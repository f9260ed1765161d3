import { test as base } from '@playwright/test';

/** Specs import `test` and `expect` from here to get the shared fixtures. */
export const test = base.extend<{ consoleErrors: string[] }>({
  // Every console error and uncaught exception the page produces, in order. Opt-in: specs
  // that provoke failures on purpose (network errors, bad keys) simply do not ask for it.
  consoleErrors: async ({ page }, use) => {
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    await use(errors);
  },
});

export { expect } from '@playwright/test';
