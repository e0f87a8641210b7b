import path from 'node:path';

/** Where the e2e server keeps its files; set by playwright.config.ts before anything runs. */
export function e2eDirs() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run through tests/e2e/playwright.config.ts');
  return { dataDir, outboxDir: path.join(dataDir, 'outbox'), storageDir: path.join(dataDir, 'storage') };
}

export const DEMO_PASSWORD = 'demo-password';
