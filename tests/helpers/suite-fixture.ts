import { afterAll, beforeAll } from 'vitest';

/**
 * A value one test file shares: made in its beforeAll, ended in its afterAll, and read by the
 * tests as the plain object (`const app = useTestServer()` ... `app.deps.db`). Reading it before
 * the beforeAll has run is a mistake in the test file, so it throws rather than answer undefined.
 */
export function suiteFixture<T extends object>(start: () => Promise<T>, stop: (value: T) => Promise<void>): T {
  let value: T | undefined;
  beforeAll(async () => {
    value = await start();
  });
  afterAll(async () => {
    if (value) await stop(value);
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (!value) throw new Error(`suite fixture read (${String(key)}) before its beforeAll ran`);
      const field: unknown = Reflect.get(value, key, value);
      return typeof field === 'function' ? (field as (...args: unknown[]) => unknown).bind(value) : field;
    },
  });
}
