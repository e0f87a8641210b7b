import Stripe from 'stripe';

/**
 * Stripe webhook events, signed offline with the stripe package's own test signatures
 * (`generateTestHeaderString`) against the test server's STRIPE_WEBHOOK_SECRET.
 */
export const STRIPE_TEST_ENV = { STRIPE_SECRET_KEY: 'sk_test_offline', STRIPE_WEBHOOK_SECRET: 'whsec_test_secret_for_offline_webhooks' };

const stripe = new Stripe(STRIPE_TEST_ENV.STRIPE_SECRET_KEY);

export const stripeEvent = (id: string, type: string, object: object) => ({ id, object: 'event', type, data: { object } });

/** Posts the event, signed, to the app's webhook; answers the outcome the app reports. */
export async function sendSigned(appUrl: string, event: object): Promise<{ status: number; outcome: string | undefined }> {
  const payload = JSON.stringify(event);
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_TEST_ENV.STRIPE_WEBHOOK_SECRET });
  const res = await fetch(`${appUrl}/webhooks/stripe`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
  const body = (await res.json().catch(() => ({}))) as { outcome?: string };
  return { status: res.status, outcome: body.outcome };
}
