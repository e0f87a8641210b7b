import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestServer, type TestServer } from './test-server';

/**
 * One test server for the calling test file, started before its first test and closed after the
 * last. With `emptyUsers`, every test starts from no users at all (cascades remove profiles,
 * posts, subscriptions, tiers...). The handle can be captured at module level: it forwards to
 * the server once beforeAll has started it.
 */
export function useFileServer(opts: { emptyUsers?: boolean } = {}): TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  if (opts.emptyUsers) {
    beforeEach(async () => {
      await started().deps.db.deleteFrom('users').execute();
    });
  }
  const started = (): TestServer => {
    if (!server) throw new Error('the test server is used before beforeAll started it');
    return server;
  };
  return new Proxy({} as TestServer, {
    get: (_target, key) => Reflect.get(started(), key),
  });
}
