/* CreatorHub's service worker (issue 28): web push, and an offline page instead of the browser's error. */
const OFFLINE_CACHE = 'offline-v1';
const OFFLINE_URL = '/offline.html';

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(OFFLINE_CACHE).then((cache) => cache.add(new Request(OFFLINE_URL, { cache: 'reload' }))));
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

// only page loads: every other request (API, media, sockets) goes to the network untouched
self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(fetch(event.request).catch(() => caches.match(OFFLINE_URL)));
});

// the payload says what happened and who (common/notifications.ts PushPayload), never a message's text
self.addEventListener('push', (event) => {
  let data = { title: 'CreatorHub', body: 'You have a new notification', url: '/notifications', tag: undefined };
  try {
    data = { ...data, ...event.data.json() };
  } catch {
    // an empty or unreadable push still tells the user something happened
  }
  event.waitUntil(self.registration.showNotification(data.title, { body: data.body, tag: data.tag, icon: '/icon-192.png', data: { url: data.url } }));
});

// a click opens the right screen: an open tab of this site navigates there, or a new window opens
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url || '/notifications', self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((tabs) => {
      const tab = tabs.find((t) => new URL(t.url).origin === self.location.origin);
      if (tab) return tab.navigate(url).then((t) => (t || tab).focus());
      return self.clients.openWindow(url);
    }),
  );
});
