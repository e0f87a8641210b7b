// first: before any module builds a zod schema (lib/zod-jitless.ts)
import './lib/zod-jitless';
import { RouterProvider } from '@tanstack/react-router';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrateFirstData } from './lib/first-data';
import { createQueryClient } from './lib/query-client';
import { registerServiceWorker } from './lib/service-worker';
import { createTrpcClient } from './lib/trpc';
import { createAppRouter } from './router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const queryClient = createQueryClient();
// the route's first data, which the server put into the page (no second round trip before the first paint)
const pageBroughtData = hydrateFirstData(queryClient);
const router = createAppRouter(queryClient, createTrpcClient());

/** How long the first render waits for the page's route to resolve from the data the HTML brought. */
const FIRST_LOAD_WAIT_MS = 1_000;

function render() {
  // A transition renders the first screen in slices that yield to the browser every few
  // milliseconds, instead of one long task that blocks input (issue 30: total blocking time).
  startTransition(() => {
    createRoot(root!).render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    );
  });
}

// A public page the server rendered (src/entry-server.tsx) is hydrated, not rendered again: its
// content is painted from the HTML before any script runs, and React adopts those nodes. It needs
// both the router's hydration data ($_TSR) and the query cache the markup was rendered from.
if (pageBroughtData && '$_TSR' in window && root.firstElementChild) {
  // in a transition, hydration yields to the browser every few milliseconds too (one long task
  // of the whole landing page otherwise: total blocking time 1.5 s against 0.17 s unrendered)
  startTransition(() => {
    hydrateRoot(
      root,
      <StrictMode>
        <RouterClient router={router} />
      </StrictMode>,
    );
  });
} else if (pageBroughtData) {
  // The page's data is in the cache and its route chunks are preloaded by the HTML (server/http/
  // route-chunks.ts), so the route resolves almost at once: resolving it before the first render
  // makes the first commit the page itself, not the shell's skeleton and then the page (two
  // commits, two layouts of the whole document on a slow phone; issue 30). Without the page's
  // data (dev server, a page the server could not fill in time) the skeleton paints at once.
  let rendered = false;
  const once = () => {
    if (rendered) return;
    rendered = true;
    render();
  };
  setTimeout(once, FIRST_LOAD_WAIT_MS);
  router.load().then(once, once);
} else {
  render();
}

// the service worker (public/sw.js): an offline page instead of the browser's error, and web push
window.addEventListener('load', () => void registerServiceWorker());
