import { registerSW } from 'virtual:pwa-register';

let registered = false;

/** Registers the Workbox service worker (vite-plugin-pwa) once; a new version takes over at once. */
export function registerServiceWorker(): void {
  if (registered || !('serviceWorker' in navigator)) return;
  registered = true;
  registerSW({ immediate: true });
}
