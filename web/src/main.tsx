import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { configureApi } from './api/client';
import { App } from './app/app';
import { loadRuntimeConfig, resolveApiEndpoint, setRuntimeConfig } from './app/config';
import { i18nReady } from './locales/i18n';

async function start() {
  // The first render waits for the language's catalogue: no text shows as its key first.
  const [config] = await Promise.all([loadRuntimeConfig(), i18nReady]);
  setRuntimeConfig(config);
  configureApi(resolveApiEndpoint(config, window.location.origin));
  const container = document.getElementById('root');
  if (!container) throw new Error('No #root element');
  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
