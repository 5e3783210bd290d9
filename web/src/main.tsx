import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './locales/i18n';
import { configureApi } from './api/client';
import { App } from './app/app';
import { loadRuntimeConfig, resolveApiEndpoint, setRuntimeConfig } from './app/config';

async function start() {
  const config = await loadRuntimeConfig();
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
