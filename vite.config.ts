import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

/** A group of node_modules packages, matched by the path segment(s) after node_modules/. */
const vendor = (...packages: string[]) => new RegExp(`[\\\\/]node_modules[\\\\/](${packages.join('|')})[\\\\/]`);

/**
 * Vendor chunks by what changes together, so an app deploy leaves them cached and each page
 * loads only the libraries it uses (tests/e2e/bundle-budget.spec.ts keeps the landing page under
 * 200 kB of gzip JavaScript). Routes are split by the router plugin (autoCodeSplitting): each
 * page's component is its own chunk. Radix (menus, dialogs, tabs) is deliberately not grouped
 * here: a single group would pull it into every page; left alone it stays with the lazy
 * chunks that use it.
 */
const vendorGroups = [
  { name: 'react', test: vendor('react', 'react-dom', 'scheduler'), priority: 30 },
  { name: 'router', test: vendor('@tanstack/router-core', '@tanstack/react-router', '@tanstack/history', '@tanstack/store', '@tanstack/react-store'), priority: 20 },
  { name: 'data', test: vendor('@tanstack/query-core', '@tanstack/react-query', '@trpc', 'superjson', 'copy-anything', 'is-what'), priority: 20 },
  { name: 'zod', test: vendor('zod'), priority: 20 },
  { name: 'realtime', test: vendor('socket\\.io-client', 'socket\\.io-parser', 'engine\\.io-client', 'engine\\.io-parser', '@socket\\.io'), priority: 20 },
  // The media error handlers are shared by the post cards and the messages: alone they made a
  // chunk of their own on the landing page (0.6 kB gzip); grouped with the toasts they call, the
  // landing page loads two chunks fewer (199.7 -> 199.3 kB with the handlers).
  // The icons the landing page's cards draw, and the small formatting modules they share with
  // other screens (and the date formatting of the cards with its zone hook): left alone each is a chunk of its own (a dozen files of 0.2-0.6 kB gzip, most
  // of it per-file overhead); together the landing page loaded 197.7 kB instead of 201.0 kB.
  // lucide-react now ships the music icon as icons/eighth-notes.mjs (music is its alias), and
  // the feed's new-posts pill draws arrow-up: each was a chunk of its own until listed here.
  {
    name: 'card-icons',
    test: /[\\/]lucide-react[\\/]dist[\\/]esm[\\/](createLucideIcon|Icon|context|defaultAttributes|shared[\\/]src[\\/]utils|icons[\\/](film|sparkles|file-text|crown|badge-check|music|eighth-notes|arrow-up|wallet|download|lock|play|chevron-right|users|inbox))\.mjs$|[\\/]common[\\/](format|duration|file-size)\.ts$|[\\/]src[\\/]lib[\\/](format|use-display-zone)\.ts$/,
    priority: 10,
  },
  // The small components the landing page shares with other pages (avatars, badges, the creator
  // card, load states). They rode in the entry chunk while /messages and /explore kept their whole
  // pages there for their pending skeletons; with the skeletons in files of their own, each became
  // a chunk of its own (0.2-1.1 kB gzip, eleven more files). Rolldown puts a group's dependencies
  // in with it (the texts, the button, cn): below the toast group's priority, so sonner stays
  // there. Landing page: 200.2 kB -> 197.0 kB in 14 files. The call-to-action card (the feed's
  // sign-up prompt draws it) was a chunk of its own too.
  {
    name: 'card-parts',
    test: /[\\/]src[\\/]components[\\/](ui[\\/](avatar|badge|verified-badge)|load-states|load-more-sentinel|creator-card|call-to-action-card)\.tsx$|[\\/]common[\\/]post-name\.ts$/,
    priority: 5,
  },
  { name: 'toast', test: /[\\/]src[\\/]lib[\\/](toast|media-errors)\.ts$/, priority: 10 },
  // sonner is loaded when the toaster mounts, after the page's start (src/lib/toast.ts): a chunk of
  // its own, not with the toast calls every page imports
  { name: 'sonner', test: vendor('sonner'), priority: 10 },
];

/**
 * Routes whose loaders read the username through the shared zod schema (profile-queries): their
 * loaders go in their own chunk instead of the router's entry chunk, which every first visit
 * loads (zod is ~24 kB gzip). Loaders of other routes stay in the entry chunk, so their requests
 * start with the navigation; /$username's beforeLoad imports profile-queries itself.
 */
const LAZY_LOADER_ROUTES = new Set<string>(['/$username/', '/$username/content', '/$username/subscribe']);

export default defineConfig({
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      codeSplittingOptions: {
        splitBehavior: ({ routeId }) => (LAZY_LOADER_ROUTES.has(routeId) ? [['loader'], ['component'], ['errorComponent'], ['notFoundComponent']] : undefined),
      },
      routesDirectory: 'src/routes',
      generatedRouteTree: 'src/routeTree.gen.ts',
    }),
    react(),
    tailwindcss(),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // read by the server (server/http/route-chunks.ts) to preload a page's route chunks from its HTML
    manifest: true,
    emptyOutDir: true,
    rolldownOptions: { output: { codeSplitting: { groups: vendorGroups } } },
  },
  server: {
    port: 5173,
    proxy: {
      '/trpc': api,
      '/media': api,
      '/uploads': api,
      '/message-attachments': api,
      '/admin': api,
      '/receipts': api,
      '/healthz': api,
      '/readyz': api,
      '/socket.io': { target: api, ws: true },
    },
  },
});
