import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { createAppStores } from './state/appStores.ts';
import { browserPlatform } from './state/browserPlatform.ts';
import { StoresProvider } from './state/context.tsx';
import './app.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The page's one set of stores, made here and handed down through context (app/state/README.md).
const stores = createAppStores(browserPlatform());

// Keys the user chose to remember on this device go to the worker before the first run.
stores.session.restoreRememberedKeys();

// Saved for offline use after the first visit: production builds only, and loaded on its own
// so the first screen's JavaScript does not carry it.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  void import('./offline/serviceWorkerClient.ts').then((offline) => stores.part(offline.createOfflineClient).register());
}

createRoot(container).render(
  <StrictMode>
    <StoresProvider stores={stores}>
      <App />
    </StoresProvider>
  </StrictMode>,
);
