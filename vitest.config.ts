import { defineConfig } from 'vitest/config';

/**
 * Files that touch stored bytes (uploads, media processing, exports, account deletion), run a
 * second time with STORAGE_DRIVER=s3 against the run's S3 server (tests/helpers/s3-server.ts).
 */
const S3_FILES = [
  'tests/integration/uploads.test.ts',
  'tests/integration/uploads-two-copies.test.ts',
  'tests/integration/media-pipeline.test.ts',
  'server/features/account/account.test.ts',
];

/** Integration files that mock a module with vi.mock. */
const MOCKING_FILES = ['server/features/auth/reset-password.test.ts'];

const integration = {
  include: ['core/**/*.test.ts', 'domain/**/*.test.ts', 'server/**/*.test.ts', 'worker/**/*.test.ts', 'tests/integration/**/*.test.ts'],
  exclude: ['**/*.unit.test.ts', 'node_modules/**', 'dist/**'],
  environment: 'node',
  globalSetup: ['tests/helpers/global-setup.ts'],
  // Each file gets its own database (tests/helpers/test-db.ts); two at a time suits 2 cores.
  fileParallelism: true,
  maxWorkers: 2,
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['common/**/*.test.ts', '**/*.unit.test.ts', 'tests/unit/**/*.test.ts'],
          exclude: ['node_modules/**', 'dist/**'],
          environment: 'node',
          // One module cache per worker, as the integration files share theirs: a fresh one per
          // file was two thirds of this project's time (70 files: 48 s -> 23 s). No unit file
          // mocks a module; spies are put back after every test.
          isolate: false,
          restoreMocks: true,
        },
      },
      {
        test: {
          ...integration,
          name: 'integration',
          exclude: [...integration.exclude, ...MOCKING_FILES],
          // The files share each worker's module cache: every file imports the whole server, and
          // importing it once per worker instead of once per file saves about two minutes of
          // worker time. Each file still gets its own database, app and Redis prefix.
          isolate: false,
        },
      },
      {
        test: { ...integration, name: 'integration-s3', include: S3_FILES, isolate: false, env: { TEST_STORAGE_DRIVER: 's3' } },
      },
      {
        // vi.mock replaces a module for one file, which needs a module cache of its own
        test: { ...integration, name: 'integration-mocks', include: MOCKING_FILES },
      },
    ],
  },
});
