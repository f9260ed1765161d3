// The page's side of the offline service worker (workers/hosts/offline/serviceWorker.ts): registers it
// in production builds, says when the app is saved for offline use, and offers a new build once
// its service worker is waiting, reloading into it when the person agrees.

import type { PageToServiceWorker } from '../../workers/hosts/offline/cachePolicy.ts';

export type OfflineState =
  /** No service worker here: the dev server, an old browser, or registration refused. */
  | { kind: 'unavailable' }
  /** Saving the app, the corpus and Python for offline use. */
  | { kind: 'saving' }
  | { kind: 'ready' }
  /** A new build is installed and waits for the page to reload into it. */
  | { kind: 'update'; waiting: ServiceWorker }
  /** The person chose the new build: the page reloads once it takes over. */
  | { kind: 'reloading' }
  | { kind: 'failed'; reason: string };

/** How often an open tab asks whether a new build was deployed (a classroom tab stays open). */
const UPDATE_CHECK_MS = 30 * 60_000;

// A store of its own rather than zustand: this module loads after the first screen, and must not
// pull React's shared code out of the first load with it. One per set of stores
// (stores.part(createOfflineClient)): main.tsx registers it, the header's status reads it.
export class OfflineClient {
  private state: OfflineState = { kind: 'unavailable' };
  private readonly listeners = new Set<() => void>();
  /** The person chose the new build: the next controller change reloads into it. */
  private reloadRequested = false;

  get = (): OfflineState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private setState(next: OfflineState): void {
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  /** Registers the service worker (production builds, after the page's own load). */
  register = (): void => {
    if (!('serviceWorker' in navigator)) return;
    const container = navigator.serviceWorker;
    // After the page's own load, so the first screen does not wait for Pyodide's download.
    const start = () => {
      container
        .register(`${import.meta.env.BASE_URL}sw.js`, { scope: import.meta.env.BASE_URL })
        .then((registration) => this.watch(registration))
        .catch((error: unknown) => {
          // Refused (a private window, a test that blocks service workers): the app works online.
          this.setState({ kind: 'failed', reason: error instanceof Error ? error.message : String(error) });
        });
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
  };

  private watch(registration: ServiceWorkerRegistration): void {
    const container = navigator.serviceWorker;
    const settle = () => {
      // The new build activates before it takes over the page, which would read as "ready" for a
      // moment: the page says it is reloading until `controllerchange` reloads it.
      if (this.reloadRequested) return;
      if (registration.waiting && container.controller) {
        this.setState({ kind: 'update', waiting: registration.waiting });
      } else if (registration.installing) {
        this.setState({ kind: 'saving' });
        follow(registration.installing);
      } else if (registration.active && container.controller) {
        this.setState({ kind: 'ready' });
      } else if (registration.active) {
        // Active but not yet in charge of this page: it claims it as it activates.
        this.setState({ kind: 'saving' });
      }
    };
    const follow = (worker: ServiceWorker) => {
      worker.addEventListener('statechange', () => {
        if (worker.state === 'redundant' && !registration.active) {
          this.setState({ kind: 'failed', reason: 'the app could not be saved for offline use' });
          return;
        }
        settle();
      });
    };
    registration.addEventListener('updatefound', settle);
    container.addEventListener('controllerchange', () => {
      // The version the person chose to reload into took over: load its files.
      if (this.reloadRequested) window.location.reload();
      else settle();
    });
    const check = () => void registration.update().catch(() => undefined);
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState === 'visible') check();
    });
    setInterval(check, UPDATE_CHECK_MS);
    settle();
  }

  /** Reloads the page into the waiting build. */
  reloadIntoUpdate = (): void => {
    if (this.state.kind !== 'update') return;
    this.reloadRequested = true;
    const message: PageToServiceWorker = { type: 'skip-waiting' };
    this.state.waiting.postMessage(message);
    this.setState({ kind: 'reloading' });
  };
}

export function createOfflineClient(): OfflineClient {
  return new OfflineClient();
}
