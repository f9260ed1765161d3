import type { APIResponse, Route } from '@playwright/test';

const ATTEMPTS = 3;

/**
 * `route.fetch()`, tried again when the connection was reset. Node's HTTP server (vite preview)
 * closes an idle keep-alive connection after a few seconds; a request Playwright sends on it at
 * that moment fails with ECONNRESET, where a browser would retry the GET by itself. Only that is
 * retried: any other failure, or a third reset, is the test's.
 */
export async function fetchThroughRoute(route: Route): Promise<APIResponse> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await route.fetch();
    } catch (error) {
      if (attempt >= ATTEMPTS || !/ECONNRESET|socket hang up/.test(String(error))) throw error;
    }
  }
}
