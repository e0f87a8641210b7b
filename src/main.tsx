import { RouterProvider } from '@tanstack/react-router';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { registerServiceWorker } from './lib/service-worker';
import { router } from './router';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

// A transition renders the first screen in slices that yield to the browser every few
// milliseconds, instead of one long task that blocks input (issue 30: total blocking time).
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});

// the service worker (public/sw.js): an offline page instead of the browser's error, and web push
window.addEventListener('load', () => void registerServiceWorker());
