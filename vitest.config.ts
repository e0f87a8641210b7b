import { defineConfig } from 'vitest/config';

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
          name: 'integration',
          include: ['core/**/*.test.ts', 'domain/**/*.test.ts', 'server/**/*.test.ts', 'worker/**/*.test.ts', 'tests/integration/**/*.test.ts'],
          exclude: ['**/*.unit.test.ts', 'node_modules/**', 'dist/**'],
          environment: 'node',
          globalSetup: ['tests/helpers/global-setup.ts'],
          // Each file gets its own database (tests/helpers/test-db.ts); two at a time suits 2 cores.
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
