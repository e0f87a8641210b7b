import { defineConfig, devices } from '@playwright/test';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Chosen once in the main process; workers inherit it through the environment. Below Linux's
// ephemeral range (32768-60999): a port inside it can be the local end of a connection already
// open to PostgreSQL or Redis, and the server's listen then fails with EADDRINUSE (it did once).
process.env.E2E_PORT ??= String(20000 + Math.floor(Math.random() * 12000));
process.env.E2E_DATA_DIR ??= path.join(tmpdir(), `creator-e2e-${process.env.E2E_PORT}`);
const baseURL = `http://localhost:${process.env.E2E_PORT}`;

/**
 * Debian's Chromium. Its headless shell (package chromium-headless-shell, the browser Playwright
 * itself runs headless) when installed: the full browser in headless mode starts a window with its
 * own toolbar renderer for every context, which made a context, a page and a screenshot take 2.5x
 * as long (measured: 0.9 s against 0.37 s); the page engine is the same build.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH ?? (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  globalSetup: './support/global-setup.ts',
  fullyParallel: false,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // a whole journey on a 2-core machine that also runs the server, its worker and Postgres
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  // Per run: a concurrent run must not wipe this one's traces.
  outputDir: `../.artifacts/test-results/${process.env.E2E_PORT}`,
  use: {
    // the app's service worker (offline page, push) would sit between the tests' page.route() and the
    // server on page loads; a push test allows it in its own context
    serviceWorkers: 'block',
    baseURL,
    // Skeleton shimmers and toast animations run while a page loads, and every frame of them is
    // composited in software on these machines: with motion reduced (the app honours it) the
    // browser tests spent 17% less wall and CPU time (feed.spec and profile.spec: 173 s -> 145 s).
    // No test asserts an animation; what each one checks is there either way.
    reducedMotion: 'reduce',
    // A failed test's trace keeps its DOM snapshots, network and sources, but no screencast: the
    // screencast encodes frames of every page of every test, kept or not, and was a sixth of the
    // browser tests' CPU (feed.spec: Chromium's GPU and browser processes 48 s -> 25 s of CPU, the
    // wall 113 s -> 99 s). A failure still leaves its screenshot (below) and the snapshots' DOM.
    // In CI, where a failed test runs once more, only that second run records one: recording every
    // first run for the few that fail cost 7% of the CPU (feed, create and profile specs: 307-325 s
    // against 288-294 s), and a test that fails twice, or passes only the second time, has its trace.
    trace: { mode: process.env.CI ? 'on-first-retry' : 'retain-on-failure', screenshots: false, snapshots: true, sources: true },
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: chromiumPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } }],
});
