/**
 * The one place the service worker (public/sw.js: the offline page and web push) is registered:
 * at start-up by main.tsx, and awaited by web push before it subscribes (a repeat call answers
 * the same registration, so turning push on before the page's load event still works).
 */
let registration: Promise<ServiceWorkerRegistration | null> | null = null;

export function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return Promise.resolve(null);
  registration ??= navigator.serviceWorker.register('/sw.js').catch(() => null);
  return registration;
}
