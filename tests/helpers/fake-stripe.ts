import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { STRIPE_TEST_ENV } from './stripe-events';
import { suiteFixture } from './suite-fixture';
import { useTestServer, type TestServer, type TestServerOptions } from './test-server';

/** One request the fake received, as Stripe would read it. */
export interface FakeStripeRequest {
  method: string;
  /** without the query string: '/v1/refunds' */
  path: string;
  /** the query string's (GET) or form body's (POST, DELETE) parameters */
  params: Record<string, string>;
  idempotencyKey: string | null;
}

export interface FakeStripe {
  /** for STRIPE_API_URL */
  url: string;
  /** every request received, oldest first */
  requests: FakeStripeRequest[];
  /** 'active' until cancelled here; any id the tests name exists */
  subscriptionStatus(id: string): string;
  /** what the last `POST /v1/subscriptions/:id` set cancel_at_period_end to (false before any) */
  cancelsAtPeriodEnd(id: string): boolean;
  /** Stripe ends the subscription on its own (the customer or the dashboard cancelled it) */
  endSubscription(id: string): void;
  /** a refund made outside the app (Stripe's dashboard): what a later charge.refunded reports */
  refundInDashboard(paymentIntent: string, cents: number): string;
  /** the refunds made of a payment intent, oldest first */
  refundsOf(paymentIntent: string): FakeRefund[];
  /** the payment intent the fake says paid this invoice */
  intentOf(invoiceId: string): string;
  /** Connect accounts created, by id, with what the fake says of them (payouts_enabled etc.) */
  accounts: Map<string, { payouts_enabled: boolean; details_submitted: boolean }>;
  /** transfers made (each key once), oldest first */
  transfers: { id: string; amount: number; destination: string; idempotencyKey: string | null }[];
  /** the next transfers to `destination` are refused (400 invalid_request_error, Stripe's words) */
  refuseTransfersTo(destination: string, message: string): void;
  /** the next `count` requests to `method path` answer 500 (Stripe's api_error) */
  failNext(method: string, path: string, count?: number): void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown };

export interface FakeRefund {
  id: string;
  /** cents */
  amount: number;
  reversalKey: string | null;
}

/**
 * Stripe's HTTP API, the few calls billing makes besides Checkout, on a local port: the real
 * stripe SDK talks to it (STRIPE_API_URL), so what reaches "Stripe" is asserted on the wire. Like
 * Stripe, a repeated Idempotency-Key gets the first answer again, refunds carry their amount and
 * metadata (and are listed by payment), and cancelling a cancelled subscription is an invalid request.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: FakeStripeRequest[] = [];
  const cancelled = new Set<string>();
  const cancelAtPeriodEnd = new Set<string>();
  const refunds = new Map<string, FakeRefund[]>();
  const refundsOf = (paid: string) => refunds.get(paid) ?? [];
  const addRefund = (paid: string, amount: number, reversalKey: string | null) => {
    const refund = { id: `re_fake_${[...refunds.values()].flat().length + 1}`, amount, reversalKey };
    refunds.set(paid, [...refundsOf(paid), refund]);
    return refund;
  };
  const refundBody = (paid: string, r: FakeRefund) => ({
    id: r.id, object: 'refund', status: 'succeeded', amount: r.amount,
    payment_intent: paid.startsWith('pi_') ? paid : null, charge: paid.startsWith('ch_') ? paid : null,
    metadata: r.reversalKey ? { reversal_key: r.reversalKey } : {},
  });
  const answered = new Map<string, Answer>();
  const failures = new Map<string, number>();
  const intentOf = (invoiceId: string) => `pi_${invoiceId.replace(/^in_/, '')}`;
  const error = (status: number, type: string, message: string, code?: string): Answer => ({ status, body: { error: { type, message, ...(code && { code }) } } });
  const subscription = (id: string) => ({ id, object: 'subscription', status: cancelled.has(id) ? 'canceled' : 'active', cancel_at_period_end: cancelAtPeriodEnd.has(id) });

  const accounts = new Map<string, { payouts_enabled: boolean; details_submitted: boolean }>();
  const transfers: { id: string; amount: number; destination: string; idempotencyKey: string | null }[] = [];
  const refusedDestinations = new Map<string, string>();
  const account = (id: string) => ({ id, object: 'account', type: 'express', requirements: { currently_due: accounts.get(id)?.details_submitted ? [] : ['individual.id_number'] }, ...accounts.get(id) });

  function answer(request: FakeStripeRequest): Answer {
    const route = `${request.method} ${request.path}`;
    const failing = failures.get(route) ?? 0;
    if (failing > 0) {
      failures.set(route, failing - 1);
      return error(500, 'api_error', 'Something went wrong on Stripe’s end (fake)');
    }
    const sub = /^\/v1\/subscriptions\/([^/]+)$/.exec(request.path)?.[1];
    if (sub && request.method === 'GET') return { status: 200, body: subscription(sub) };
    if (sub && request.method === 'POST') {
      if (cancelled.has(sub)) return error(400, 'invalid_request_error', `The subscription ${sub} is already canceled.`);
      if (request.params.cancel_at_period_end === 'true') cancelAtPeriodEnd.add(sub);
      if (request.params.cancel_at_period_end === 'false') cancelAtPeriodEnd.delete(sub);
      return { status: 200, body: subscription(sub) };
    }
    if (sub && request.method === 'DELETE') {
      if (cancelled.has(sub)) return error(400, 'invalid_request_error', `The subscription ${sub} is already canceled.`);
      cancelled.add(sub);
      return { status: 200, body: subscription(sub) };
    }
    if (route === 'GET /v1/invoice_payments') {
      // by invoice (what paid it), or by payment (which invoice it paid)
      const byIntent = request.params['payment[payment_intent]'];
      const invoice = request.params.invoice ?? (byIntent?.startsWith('pi_') ? `in_${byIntent.slice(3)}` : '');
      const data = invoice ? [{ id: `inpay_${invoice}`, object: 'invoice_payment', invoice, status: 'paid', is_default: true, payment: { type: 'payment_intent', payment_intent: intentOf(invoice) } }] : [];
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/invoice_payments' } };
    }
    if (route === 'POST /v1/refunds') {
      const paid = request.params.payment_intent ?? request.params.charge ?? '';
      if (!paid) return error(400, 'invalid_request_error', 'Missing payment_intent or charge');
      // the app always names the amount (the fake does not know what each payment was)
      const amount = Number(request.params.amount);
      if (!Number.isInteger(amount) || amount <= 0) return error(400, 'invalid_request_error', 'This fake wants a positive amount in cents');
      const refund = addRefund(paid, amount, request.params['metadata[reversal_key]'] ?? null);
      return { status: 200, body: refundBody(paid, refund) };
    }
    if (route === 'POST /v1/accounts') {
      const id = `acct_fake_${accounts.size + 1}`;
      accounts.set(id, { payouts_enabled: false, details_submitted: false });
      return { status: 200, body: account(id) };
    }
    const acct = /^\/v1\/accounts\/([^/]+)$/.exec(request.path)?.[1];
    if (acct && request.method === 'GET') return accounts.has(acct) ? { status: 200, body: account(acct) } : error(404, 'invalid_request_error', 'No such account', 'resource_missing');
    if (route === 'POST /v1/account_links') {
      return { status: 200, body: { object: 'account_link', url: `https://connect.stripe.test/setup/${request.params.account}`, expires_at: 0 } };
    }
    if (route === 'POST /v1/transfers') {
      const destination = request.params.destination ?? '';
      const refused = refusedDestinations.get(destination);
      if (refused) return error(400, 'invalid_request_error', refused);
      const transfer = { id: `tr_fake_${transfers.length + 1}`, amount: Number(request.params.amount), destination, idempotencyKey: request.idempotencyKey };
      transfers.push(transfer);
      return { status: 200, body: { ...transfer, object: 'transfer', currency: request.params.currency } };
    }
    if (route === 'POST /v1/checkout/sessions') {
      // the session Checkout would host (the test reads what was asked of it in `requests`)
      const id = `cs_fake_${requests.filter((r) => r.path === request.path).length}`;
      return { status: 200, body: { id, object: 'checkout.session', mode: request.params.mode, url: `https://checkout.stripe.test/${id}`, metadata: {} } };
    }
    if (route === 'GET /v1/refunds') {
      const paid = request.params.payment_intent ?? request.params.charge ?? '';
      return { status: 200, body: { object: 'list', data: refundsOf(paid).map((r) => refundBody(paid, r)).reverse(), has_more: false, url: '/v1/refunds' } };
    }
    return error(404, 'invalid_request_error', `Unrecognized request URL (${route})`, 'resource_missing');
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake-stripe');
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    const request: FakeStripeRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      params: Object.fromEntries([...url.searchParams, ...form]),
      idempotencyKey: (req.headers['idempotency-key'] as string | undefined) ?? null,
    };
    requests.push(request);
    const key = request.idempotencyKey ? `${request.method} ${request.path} ${request.idempotencyKey}` : null;
    let result = key ? answered.get(key) : undefined;
    if (!result) {
      result = answer(request);
      // Stripe keeps the answer of a key, but not a 500's: that retry runs again
      if (key && result.status < 500) answered.set(key, result);
    }
    // no hidden retries inside the SDK: each attempt the code makes is one request here
    res.writeHead(result.status, { 'content-type': 'application/json', 'stripe-should-retry': 'false', 'request-id': `req_fake_${requests.length}` });
    res.end(JSON.stringify(result.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    subscriptionStatus: (id) => subscription(id).status,
    cancelsAtPeriodEnd: (id) => cancelAtPeriodEnd.has(id),
    endSubscription: (id) => void cancelled.add(id),
    refundInDashboard: (paymentIntent, cents) => addRefund(paymentIntent, cents, null).id,
    refundsOf,
    intentOf,
    accounts,
    transfers,
    refuseTransfersTo(destination, message) {
      refusedDestinations.set(destination, message);
    },
    failNext(method, path, count = 1) {
      failures.set(`${method} ${path}`, count);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}

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
