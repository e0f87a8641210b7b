import { defineConfig } from 'vitest/config';

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
        // vi.mock replaces a module for one file, which needs a module cache of its own
        test: { ...integration, name: 'integration-mocks', include: MOCKING_FILES },
      },
    ],
  },
});
