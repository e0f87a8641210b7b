/**
 * Profiles live at /{username}, so a username must never be a path the app already answers, a
 * file it serves, or a word that reads as a missing value. On its own, without zod, so the router
 * can read it without the sign-up schema. tests/integration/reserved-usernames.test.ts reads the
 * route files, the server's mounts and the app's files at test time and fails when one of their
 * top-level names is missing here.
 */

/** The web app's top-level route segments (src/routes). */
const ROUTE_SEGMENTS = [
  'admin', 'auth', 'create', 'csae-policy', 'explore', 'messages', 'post', 'privacy', 'settings', 'subscribe', 'terms', 'trial',
];

/** The server's own paths (server/app.ts mounts, Socket.IO). */
const SERVER_PATHS = [
  'avatar', 'avatars', 'exports', 'forensics', 'healthz', 'hls', 'media', 'message-attachments', 'metrics', 'og', 'readyz', 'receipts', 'socket.io', 'trpc', 'uploads',
  'webhooks',
];

/** Files of the built app (public/, index.html, Vite's assets/) and ones browsers and crawlers ask for. */
const FILES = [
  'assets', 'favicon.svg', 'index.html', '.vite',
  '.well-known', 'ads.txt', 'apple-touch-icon.png', 'apple-touch-icon-precomposed.png', 'browserconfig.xml', 'favicon.ico',
  'humans.txt', 'manifest.json', 'manifest.webmanifest', 'robots.txt', 'security.txt', 'service-worker.js', 'sitemap.xml', 'sw.js', 'icon-192.png', 'icon-512.png', 'offline.html',
];

/** Words that read as a missing value or as the site itself, and paths the app may grow into. */
const WORDS = [
  'null', 'undefined', 'nan', 'none', 'nil', 'true', 'false', 'index',
  'api', 'app', 'static', 'public', 'www', 'root', 'system', 'support', 'help', 'about', 'home', 'me', 'self',
  'login', 'logout', 'signin', 'signout', 'signup', 'register', 'account', 'profile', 'user', 'users', 'search', 'notifications',
  'payments', 'payment', 'billing', 'checkout', 'feed', 'bookmarks', 'reports', 'moderator', 'administrator', 'creatorhub',
];

export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([...ROUTE_SEGMENTS, ...SERVER_PATHS, ...FILES, ...WORDS]);

/**
 * Whether a (normalised, lower-case) username cannot be taken: a reserved name, or one made only
 * of dots, dashes and underscores (`.` and `..` are the current and the parent path).
 */
export function isReservedUsername(name: string): boolean {
  return RESERVED_USERNAMES.has(name) || !/[a-z0-9]/.test(name);
}
