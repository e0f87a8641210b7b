/**
 * Profiles live at /{username}: names of the app's own routes and endpoints cannot be taken
 * (sign-up refuses them), and the web app never looks a profile up by one. On its own, without
 * zod, so the router can read it without the sign-up schema.
 */
export const RESERVED_USERNAMES: ReadonlySet<string> = new Set([
  'admin', 'api', 'assets', 'auth', 'create', 'csae-policy', 'explore', 'healthz', 'media', 'messages', 'metrics',
  'post', 'privacy', 'readyz', 'settings', 'socket.io', 'subscribe', 'terms', 'trpc', 'uploads',
]);
