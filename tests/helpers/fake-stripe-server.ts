import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  /** Checkout sessions created (payment and setup mode), by id, with the parameters they were made with */
  sessions: Map<string, FakeSession>;
  /** PaymentIntents created, by id */
  intents: Map<string, FakeIntent>;
  /** customers created (each idempotency key once) */
  customers: string[];
  /** payment methods detached from their customer */
  detached: string[];
  /**
   * The fan finishes a setup-mode Checkout with a card that, when charged, succeeds, asks for 3-D
   * Secure, or is declined: answers the session as Stripe's checkout.session.completed carries it.
   */
  finishSetup(sessionId: string, card: { brand: string; last4: string; behaviour: CardBehaviour }): Record<string, unknown>;
  /** The fan pays a payment-mode Checkout: its PaymentIntent succeeds; answers the session as the event carries it. */
  payCheckout(sessionId: string): Record<string, unknown>;
  /** The fan passes 3-D Secure: the intent succeeds; answers it as payment_intent.succeeded carries it. */
  passAuthentication(intentId: string): Record<string, unknown>;
  /** the next `count` requests to `method path` answer 500 (Stripe's api_error) */
  failNext(method: string, path: string, count?: number): void;
  close(): Promise<void>;
}

type Answer = { status: number; body: unknown };

export type CardBehaviour = 'succeeds' | 'requires_action' | 'declines';

export interface FakeSession {
  id: string;
  mode: string;
  params: Record<string, string>;
  url: string;
  setupIntent: string | null;
  paymentIntent: string | null;
}

export interface FakeIntent {
  id: string;
  amount: number;
  status: string;
  paymentMethod: string | null;
  offSession: boolean;
  metadata: Record<string, string>;
}

export interface FakeRefund {
  id: string;
  /** cents */
  amount: number;
  reversalKey: string | null;
}

/**
 * Stripe's HTTP API, the few calls billing makes (Checkout sessions, customers, saved cards and
 * their PaymentIntents, refunds, Connect), on a local port: the real
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
    balance.push({ id: `txn_${refund.id}`, type: 'refund', amount: -amount, created: nowSeconds() });
    refunds.set(paid, [...refundsOf(paid), refund]);
    return refund;
  };
  const refundBody = (paid: string, r: FakeRefund) => ({
    id: r.id, object: 'refund', status: 'succeeded', amount: r.amount,
    payment_intent: paid.startsWith('pi_') ? paid : null, charge: paid.startsWith('ch_') ? paid : null,
    metadata: r.reversalKey ? { reversal_key: r.reversalKey } : {},
  });
  // what moved the fake's balance, as Stripe's balance transactions list it (a fake's simplification: a succeeded PaymentIntent counts when listed)
  const balance: { id: string; type: string; amount: number; created: number }[] = [];
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  const answered = new Map<string, Answer>();
  const failures = new Map<string, number>();
  const intentOf = (invoiceId: string) => `pi_${invoiceId.replace(/^in_/, '')}`;
  const error = (status: number, type: string, message: string, code?: string): Answer => ({ status, body: { error: { type, message, ...(code && { code }) } } });
  const subscription = (id: string) => ({ id, object: 'subscription', status: cancelled.has(id) ? 'canceled' : 'active', cancel_at_period_end: cancelAtPeriodEnd.has(id) });

  const accounts = new Map<string, { payouts_enabled: boolean; details_submitted: boolean }>();
  const transfers: { id: string; amount: number; destination: string; idempotencyKey: string | null }[] = [];
  const refusedDestinations = new Map<string, string>();
  const account = (id: string) => ({ id, object: 'account', type: 'express', requirements: { currently_due: accounts.get(id)?.details_submitted ? [] : ['individual.id_number'] }, ...accounts.get(id) });

  const sessions = new Map<string, FakeSession>();
  const intents = new Map<string, FakeIntent>();
  const customers: string[] = [];
  const detached: string[] = [];
  const setupIntents = new Map<string, { customer: string; paymentMethod: string | null }>();
  const cards = new Map<string, { brand: string; last4: string; behaviour: CardBehaviour }>();
  const metadataOf = (params: Record<string, string>, prefix = 'metadata') =>
    Object.fromEntries(Object.entries(params).flatMap(([k, v]) => (k.startsWith(`${prefix}[`) ? [[k.slice(prefix.length + 1, -1), v]] : [])));
  const intentBody = (i: FakeIntent, extra: object = {}) => ({
    id: i.id, object: 'payment_intent', amount: i.amount, amount_received: i.status === 'succeeded' ? i.amount : 0, currency: 'zar', status: i.status,
    payment_method: i.paymentMethod, metadata: i.metadata, ...extra,
  });
  const sessionBody = (sess: FakeSession, extra: object = {}) => ({
    id: sess.id, object: 'checkout.session', mode: sess.mode, url: sess.url, metadata: metadataOf(sess.params), customer: sess.params.customer ?? null,
    amount_total: Number(sess.params['line_items[0][price_data][unit_amount]'] ?? 0), payment_status: 'unpaid', status: 'open',
    setup_intent: sess.setupIntent, payment_intent: sess.paymentIntent, ...extra,
  });
  const cardError = (code: string, message: string, intent?: FakeIntent): Answer => ({
    status: 402,
    body: { error: { type: 'card_error', code, message, ...(code === 'card_declined' && { decline_code: 'insufficient_funds' }), ...(intent && { payment_intent: intentBody(intent) }) } },
  });

  function createIntent(request: FakeStripeRequest): Answer {
    const p = request.params;
    const card = cards.get(p.payment_method ?? '');
    const intent: FakeIntent = {
      id: `pi_fake_${intents.size + 1}`, amount: Number(p.amount), status: 'requires_payment_method', paymentMethod: p.payment_method ?? null,
      offSession: p.off_session === 'true', metadata: metadataOf(p),
    };
    intents.set(intent.id, intent);
    if (!card) return error(400, 'invalid_request_error', `No such PaymentMethod: '${p.payment_method}'`, 'resource_missing');
    if (card.behaviour === 'declines') return cardError('card_declined', 'Your card was declined.', intent);
    if (card.behaviour === 'requires_action') {
      // off the page the bank's question cannot be answered: Stripe refuses it
      if (intent.offSession) return cardError('authentication_required', 'This payment requires authentication.', intent);
      intent.status = 'requires_action';
      const next = { type: 'redirect_to_url', redirect_to_url: { url: `https://hooks.stripe.test/3ds/${intent.id}`, return_url: p.return_url } };
      return { status: 200, body: intentBody(intent, { next_action: next }) };
    }
    intent.status = 'succeeded';
    return { status: 200, body: intentBody(intent) };
  }

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
      balance.push({ id: `txn_${transfer.id}`, type: 'transfer', amount: -transfer.amount, created: nowSeconds() });
      return { status: 200, body: { ...transfer, object: 'transfer', currency: request.params.currency } };
    }
    if (route === 'GET /v1/balance_transactions') {
      const gte = Number(request.params['created[gte]'] ?? 0);
      const lt = Number(request.params['created[lt]'] ?? Number.MAX_SAFE_INTEGER);
      const charges = [...intents.values()].filter((i) => i.status === 'succeeded').map((i) => ({ id: `txn_${i.id}`, type: 'charge', amount: i.amount, created: nowSeconds() }));
      const data = [...balance, ...charges].filter((t) => t.created >= gte && t.created < lt).map((t) => ({ ...t, object: 'balance_transaction', currency: 'zar' }));
      return { status: 200, body: { object: 'list', data, has_more: false, url: '/v1/balance_transactions' } };
    }
    if (route === 'POST /v1/checkout/sessions') {
      const id = `cs_fake_${sessions.size + 1}`;
      const mode = request.params.mode ?? 'payment';
      const sess: FakeSession = { id, mode, params: request.params, url: `https://checkout.stripe.test/${id}`, setupIntent: null, paymentIntent: null };
      if (mode === 'setup') {
        sess.setupIntent = `seti_fake_${setupIntents.size + 1}`;
        setupIntents.set(sess.setupIntent, { customer: request.params.customer ?? '', paymentMethod: null });
      }
      sessions.set(id, sess);
      return { status: 200, body: sessionBody(sess) };
    }
    if (route === 'POST /v1/customers') {
      const id = `cus_fake_${customers.length + 1}`;
      customers.push(id);
      return { status: 200, body: { id, object: 'customer', email: request.params.email, metadata: metadataOf(request.params) } };
    }
    const seti = /^\/v1\/setup_intents\/([^/]+)$/.exec(request.path)?.[1];
    if (seti && request.method === 'GET') {
      const intent = setupIntents.get(seti);
      if (!intent) return error(404, 'invalid_request_error', 'No such setupintent', 'resource_missing');
      const card = intent.paymentMethod ? cards.get(intent.paymentMethod) : undefined;
      const method = intent.paymentMethod && card ? { id: intent.paymentMethod, object: 'payment_method', type: 'card', card: { brand: card.brand, last4: card.last4 } } : null;
      return { status: 200, body: { id: seti, object: 'setup_intent', status: method ? 'succeeded' : 'requires_payment_method', customer: intent.customer, payment_method: method } };
    }
    if (route === 'POST /v1/payment_intents') return createIntent(request);
    const detach = /^\/v1\/payment_methods\/([^/]+)\/detach$/.exec(request.path)?.[1];
    if (detach && request.method === 'POST') {
      if (!cards.has(detach) || detached.includes(detach)) return error(400, 'invalid_request_error', 'The payment method is not attached to a customer');
      detached.push(detach);
      return { status: 200, body: { id: detach, object: 'payment_method', customer: null } };
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
    sessions,
    intents,
    customers,
    detached,
    finishSetup(sessionId, card) {
      const sess = sessions.get(sessionId);
      if (!sess?.setupIntent) throw new Error(`no setup session ${sessionId}`);
      const paymentMethod = `pm_fake_${cards.size + 1}`;
      cards.set(paymentMethod, card);
      setupIntents.get(sess.setupIntent)!.paymentMethod = paymentMethod;
      return sessionBody(sess, { status: 'complete', payment_status: 'no_payment_required' });
    },
    payCheckout(sessionId) {
      const sess = sessions.get(sessionId);
      if (!sess || sess.mode !== 'payment') throw new Error(`no payment session ${sessionId}`);
      const intent: FakeIntent = {
        id: `pi_fake_${intents.size + 1}`, amount: Number(sess.params['line_items[0][price_data][unit_amount]']), status: 'succeeded', paymentMethod: null,
        offSession: false, metadata: metadataOf(sess.params, 'payment_intent_data[metadata]'),
      };
      intents.set(intent.id, intent);
      sess.paymentIntent = intent.id;
      return sessionBody(sess, { status: 'complete', payment_status: 'paid' });
    },
    passAuthentication(intentId) {
      const intent = intents.get(intentId);
      if (!intent) throw new Error(`no intent ${intentId}`);
      intent.status = 'succeeded';
      return intentBody(intent);
    },
    failNext(method, path, count = 1) {
      failures.set(`${method} ${path}`, count);
    },
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
