import { startFakeStripe, type FakeStripe } from './fake-stripe-server';
import { STRIPE_TEST_ENV } from './stripe-events';
import { suiteFixture } from './suite-fixture';
import { useTestServer, type TestServer, type TestServerOptions } from './test-server';

// the fake itself has no test-runner imports, so the browser tests start it too (tests/e2e/stripe-cards.spec.ts)
export * from './fake-stripe-server';

/**
 * A test file's server paying through Stripe, with the fake Stripe it talks to: both started
 * before the tests (the fake first, its URL is the server's STRIPE_API_URL) and closed after them.
 * Webhooks are signed with STRIPE_TEST_ENV's secret (stripe-events.ts `sendSigned`).
 */
export function useStripeTestServer(opts: Omit<TestServerOptions, 'env'> = {}): { app: TestServer; fakeStripe: FakeStripe } {
  const fakeStripe = suiteFixture(startFakeStripe, (fake) => fake.close());
  const app = useTestServer(() => ({ ...opts, env: { ...STRIPE_TEST_ENV, STRIPE_API_URL: fakeStripe.url } }));
  return { app, fakeStripe };
}
