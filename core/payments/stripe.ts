import Stripe from 'stripe';
import type { PaymentInterval } from '../../common/enums';
import { PROVIDER_CAPABILITIES } from './capabilities';
import type { CardChargeRequest, CardChargeResult, CheckoutPaymentStatus, PaymentProvider, PayoutAccountState, ProviderEvent, ProviderMoneyKind } from './provider';
import { WebhookSignatureError } from './provider';

const STRIPE_INTERVAL: Record<PaymentInterval, 'week' | 'month' | 'year'> = { weekly: 'week', monthly: 'month', annually: 'year' };
/** Stripe's amounts are whole cents already; anything else is no money received. */
const cents = (amount: unknown) => (typeof amount === 'number' && Number.isSafeInteger(amount) ? amount : 0);

/** Stripe objects as read here: only the fields used, whatever the account's API version adds. */
type Loose = Record<string, unknown>;
const str = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && typeof (v as Loose).id === 'string' ? ((v as Loose).id as string) : null);

/** The subscription an invoice belongs to (older API versions: `subscription`; newer: `parent.subscription_details`). */
function invoiceSubscription(invoice: Loose): string | null {
  const parent = invoice.parent as Loose | undefined;
  const details = parent?.subscription_details as Loose | undefined;
  return str(details?.subscription) ?? str(invoice.subscription);
}

/** The metadata our Checkout gave the invoice's subscription (newer API: `parent.subscription_details.metadata`; older: `subscription_details.metadata`). */
function invoiceSubscriber(invoice: Loose): { userId: string; tierId: string } | null {
  const parent = invoice.parent as Loose | undefined;
  const details = (parent?.subscription_details ?? invoice.subscription_details) as Loose | undefined;
  const metadata = (details?.metadata ?? {}) as Record<string, unknown>;
  return typeof metadata.userId === 'string' && typeof metadata.tierId === 'string' ? { userId: metadata.userId, tierId: metadata.tierId } : null;
}

function invoicePeriodEnd(invoice: Loose): Date | null {
  const lines = (invoice.lines as Loose | undefined)?.data as Loose[] | undefined;
  const end = (lines?.[0]?.period as Loose | undefined)?.end;
  return typeof end === 'number' ? new Date(end * 1000) : null;
}

/** Maps a verified Stripe event to what billing applies; other types are acknowledged and ignored. */
export function toProviderEvent(event: { id: string; type: string; data: { object: unknown } }): ProviderEvent {
  const object = event.data.object as Loose;
  const oneOff = oneOffEvent(event, object);
  if (oneOff) return oneOff;
  switch (event.type) {
    // an async payment that cleared later sends the session again, now 'paid': it starts as completed would
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const metadata = (object.metadata ?? {}) as Record<string, string>;
      if (!metadata.userId || !metadata.tierId || !metadata.idempotencyKey) return { id: event.id, kind: 'ignored', type: event.type };
      return {
        id: event.id,
        kind: 'checkout-completed',
        userId: metadata.userId,
        tierId: metadata.tierId,
        idempotencyKey: metadata.idempotencyKey,
        bundlePeriods: metadata.bundlePeriods ? Number(metadata.bundlePeriods) : null,
        providerSubscriptionId: str(object.subscription),
        paymentRef: str(object.invoice) ?? str(object.payment_intent) ?? (object.id as string),
        amountCents: cents(object.amount_total),
        // anything Stripe may add later is not money received
        paymentStatus: paymentStatus(object.payment_status),
      };
    }
    case 'checkout.session.async_payment_failed': {
      const metadata = (object.metadata ?? {}) as Record<string, string>;
      if (!metadata.userId || !metadata.tierId) return { id: event.id, kind: 'ignored', type: event.type };
      return { id: event.id, kind: 'checkout-failed', userId: metadata.userId, tierId: metadata.tierId };
    }
    case 'invoice.paid': {
      const sub = invoiceSubscription(object);
      if (!sub) return { id: event.id, kind: 'ignored', type: event.type };
      return {
        id: event.id,
        kind: 'invoice-paid',
        providerSubscriptionId: sub,
        paymentRef: object.id as string,
        amountCents: cents(object.amount_paid),
        periodEnd: invoicePeriodEnd(object),
        firstInvoice: object.billing_reason === 'subscription_create',
        subscriber: invoiceSubscriber(object),
      };
    }
    case 'invoice.payment_failed': {
      const sub = invoiceSubscription(object);
      return sub ? { id: event.id, kind: 'invoice-failed', providerSubscriptionId: sub } : { id: event.id, kind: 'ignored', type: event.type };
    }
    case 'charge.refunded':
      return { id: event.id, kind: 'charge-refunded', charge: { chargeId: str(object.id), paymentIntent: str(object.payment_intent), invoice: str(object.invoice) } };
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const charge = { chargeId: str(object.charge), paymentIntent: str(object.payment_intent), invoice: null };
      const disputeId = object.id as string;
      if (event.type === 'charge.dispute.created') return { id: event.id, kind: 'dispute-opened', disputeId, charge, amountCents: cents(object.amount) };
      // 'warning_closed': an inquiry that never became a chargeback, so nothing stays taken
      const won = object.status === 'won' || object.status === 'warning_closed';
      return { id: event.id, kind: 'dispute-closed', disputeId, charge, amountCents: cents(object.amount), won };
    }
    case 'account.updated':
      return { id: event.id, kind: 'payout-account-updated', accountId: object.id as string, state: payoutAccountState(object) };
    case 'customer.subscription.deleted':
      return { id: event.id, kind: 'subscription-ended', providerSubscriptionId: object.id as string };
    default:
      return { id: event.id, kind: 'ignored', type: event.type };
  }
}

const paymentStatus = (status: unknown): CheckoutPaymentStatus => (status === 'paid' || status === 'no_payment_required' ? status : 'unpaid');

/**
 * The events of one-off purchases and saved cards, told apart from subscriptions' by their
 * metadata: `pendingId` (a tip's or unlock's Checkout, or its PaymentIntent: both may arrive, the
 * pending charge is completed once) and `purpose: 'card'` (a setup-mode Checkout). Null: not one.
 */
function oneOffEvent(event: { id: string; type: string }, object: Loose): ProviderEvent | null {
  const metadata = (object.metadata ?? {}) as Record<string, string>;
  const completed = event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded';
  if (completed && object.mode === 'setup' && metadata.purpose === 'card' && metadata.userId) {
    const setupIntentId = str(object.setup_intent);
    return setupIntentId ? { id: event.id, kind: 'card-saved', userId: metadata.userId, setupIntentId } : { id: event.id, kind: 'ignored', type: event.type };
  }
  if (!metadata.pendingId) return null;
  if (completed) {
    return {
      id: event.id, kind: 'one-off-paid', pendingId: metadata.pendingId, paymentRef: str(object.payment_intent) ?? (object.id as string),
      amountCents: cents(object.amount_total), paymentStatus: paymentStatus(object.payment_status),
    };
  }
  if (event.type === 'payment_intent.succeeded') {
    return { id: event.id, kind: 'one-off-paid', pendingId: metadata.pendingId, paymentRef: object.id as string, amountCents: cents(object.amount_received ?? object.amount), paymentStatus: 'paid' };
  }
  // a failed one-off payment leaves the pending charge unpaid: nothing to write
  return { id: event.id, kind: 'ignored', type: event.type };
}

/**
 * A Connect account's state: payouts enabled; else details still due (or never submitted); else
 * Stripe is checking them. Identity: the person's verification is 'verified', or Stripe enabled
 * payouts with every detail submitted (it does not before it has verified who is paid).
 */
export function payoutAccountState(account: Loose): PayoutAccountState {
  const requirements = (account.requirements ?? {}) as Loose;
  const due = Array.isArray(requirements.currently_due) ? requirements.currently_due : [];
  const individual = account.individual as Loose | undefined;
  const verification = individual?.verification as Loose | undefined;
  const status = account.payouts_enabled === true ? 'enabled' : account.details_submitted !== true || due.length > 0 ? 'details_needed' : 'pending';
  const identityVerified = verification?.status === 'verified' || (account.payouts_enabled === true && account.details_submitted === true);
  return { status, identityVerified };
}

/** Stripe errors that a retry will not change: the transfer is refused and the payout fails. */
const isRefusal = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError || error instanceof Stripe.errors.StripePermissionError || error instanceof Stripe.errors.StripeCardError;

/**
 * A card on file charged off the page (confirm=true, off_session=true). When the bank asks for
 * 3-D Secure, Stripe refuses an off-session charge (authentication_required): the fan is then
 * sent to the bank's page by an on-session PaymentIntent confirmed with a return_url (its
 * next_action.redirect_to_url), and payment_intent.succeeded completes the purchase. Each step has
 * its own idempotency key derived from the client's, so a double press is one charge.
 */
async function chargeSavedCard(client: Stripe, r: CardChargeRequest): Promise<CardChargeResult> {
  const base = {
    amount: r.amountCents, currency: 'zar', customer: r.customerId, payment_method: r.paymentMethodId, confirm: true, description: r.description,
    metadata: { pendingId: r.pendingId, userId: r.userId },
  };
  const declined = (error: unknown) => error instanceof Stripe.errors.StripeCardError && error.code !== 'authentication_required';
  try {
    const intent = await client.paymentIntents.create({ ...base, off_session: true }, { idempotencyKey: `card-${r.userId}-${r.idempotencyKey}` });
    if (intent.status === 'succeeded') return { status: 'succeeded', ref: intent.id };
    if (intent.status === 'processing') return { status: 'processing', ref: intent.id };
  } catch (error) {
    if (declined(error)) return { status: 'declined', reason: (error as Stripe.errors.StripeCardError).decline_code ?? (error as Stripe.errors.StripeCardError).code ?? 'card_declined' };
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
  }
  try {
    const intent = await client.paymentIntents.create({ ...base, return_url: r.returnUrl }, { idempotencyKey: `card-3ds-${r.userId}-${r.idempotencyKey}` });
    if (intent.status === 'succeeded') return { status: 'succeeded', ref: intent.id };
    if (intent.status === 'processing') return { status: 'processing', ref: intent.id };
    const url = intent.next_action?.redirect_to_url?.url;
    if (intent.status === 'requires_action' && url) return { status: 'requires_action', ref: intent.id, url };
    return { status: 'declined', reason: intent.last_payment_error?.code ?? intent.status };
  } catch (error) {
    if (error instanceof Stripe.errors.StripeCardError) return { status: 'declined', reason: error.decline_code ?? error.code ?? 'card_declined' };
    throw error;
  }
}

/** Subscription statuses after which nothing more is charged. */
const ENDED_SUBSCRIPTION = new Set(['canceled', 'incomplete_expired']);

/**
 * What a ledger reference refunds: a PaymentIntent or Charge as it is; an invoice (a subscription
 * Checkout's first payment) through the payment that paid it (API 2025-03-31 and later keep it in
 * invoice_payments, not on the invoice).
 */
async function refundTarget(client: Stripe, paymentRef: string): Promise<{ payment_intent: string } | { charge: string }> {
  if (paymentRef.startsWith('pi_')) return { payment_intent: paymentRef };
  if (paymentRef.startsWith('ch_') || paymentRef.startsWith('py_')) return { charge: paymentRef };
  if (paymentRef.startsWith('in_')) {
    const paid = await client.invoicePayments.list({ invoice: paymentRef, status: 'paid', limit: 1 });
    const payment = paid.data[0]?.payment;
    const intent = str(payment?.payment_intent);
    if (intent) return { payment_intent: intent };
    const charge = str(payment?.charge);
    if (charge) return { charge };
    throw new Error(`Invoice ${paymentRef} has no paid payment to refund`);
  }
  throw new Error(`Cannot refund ${paymentRef} automatically: refund it in the Stripe dashboard`);
}

/**
 * How long a Checkout page stays payable (issue 45): Stripe's shortest, 30 minutes, instead of its
 * default 24 hours, so a price confirmed in the app is paid (and honoured) within half an hour or
 * not at all. Stripe refuses less than 30 minutes from its own clock, and a repeated idempotency
 * key with other parameters, so `expires_at` is the end of the 5-minute window the request falls
 * in plus 31 minutes (31 to 36 minutes on: a minute for a clock here behind Stripe's), and the
 * window is part of the session's idempotency key: a double press in one window gets the same
 * page; one in the next window a second page, whose payment, if both are paid, is undone as a
 * second checkout or purchase is (docs/payments.md).
 */
export const CHECKOUT_SESSION_MINUTES = 30;
const WINDOW_S = 300;
function checkoutExpiry(): { expiresAt: number; window: number } {
  const window = Math.floor(Date.now() / 1000 / WINDOW_S);
  return { expiresAt: (window + 1) * WINDOW_S + (CHECKOUT_SESSION_MINUTES + 1) * 60, window };
}

/** How far a webhook signature's timestamp may be from this server's clock, either way (Stripe's default: 5 minutes). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * The `t=` of a Stripe-Signature header, read as Stripe's library reads it (the last `t` item
 * wins), so it is the timestamp the verified signature covers; null when there is none.
 */
function signatureTimestamp(header: string): number | null {
  let timestamp: number | null = null;
  for (const item of header.split(',')) {
    const [key, value] = item.split('=');
    if (key === 't') timestamp = Number.parseInt(value ?? '', 10);
  }
  return timestamp !== null && Number.isFinite(timestamp) ? timestamp : null;
}

/**
 * Stripe: the first payment through Checkout (mode subscription, the price inline), renewals,
 * failures and cancellations by signed webhooks (/webhooks/stripe). Chosen when
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set.
 */
/** Stripe's balance transaction types, by the ledger's kind of money (the rest, such as Stripe's own fees, is not ours to match). */
const BALANCE_KIND: Record<string, ProviderMoneyKind | undefined> = {
  charge: 'charges', payment: 'charges', refund: 'refunds', payment_refund: 'refunds', adjustment: 'disputes', transfer: 'transfers',
};

export function stripeProvider(secretKey: string, webhookSecret: string, client = new Stripe(secretKey)): PaymentProvider {
  return {
    name: 'stripe',
    flow: 'checkout',
    ...PROVIDER_CAPABILITIES.stripe,
    async charge() {
      // renewals of Stripe subscriptions are Stripe's (invoice.paid webhooks)
      return { ok: false, reason: 'Stripe subscriptions renew through Stripe' };
    },
    async createCheckout(r) {
      // a bundle bills every interval_count intervals (at most 3 years at Stripe: bundles are for weekly and monthly tiers)
      const recurring = r.intervalDays
        ? { interval: 'day' as const, interval_count: r.intervalDays }
        : { interval: STRIPE_INTERVAL[r.interval], ...(r.intervalCount && { interval_count: r.intervalCount }) };
      const metadata = { userId: r.userId, tierId: r.tierId, idempotencyKey: r.idempotencyKey, ...(r.intervalCount && { bundlePeriods: String(r.intervalCount) }) };
      const expiry = checkoutExpiry();
      const session = await client.checkout.sessions.create(
        {
          mode: 'subscription',
          customer_email: r.email,
          client_reference_id: r.userId,
          line_items: [{ quantity: 1, price_data: { currency: 'zar', unit_amount: r.amountCents, recurring, product_data: { name: r.description } } }],
          metadata,
          subscription_data: { metadata },
          expires_at: expiry.expiresAt,
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        },
        // the same Subscribe intent is the same Checkout session (within the expiry's window)
        { idempotencyKey: `checkout-${r.userId}-${r.idempotencyKey}-${expiry.window}` },
      );
      if (!session.url) throw new Error('Stripe returned no Checkout URL');
      return { url: session.url, ref: session.id };
    },
    async setCancelAtPeriodEnd(providerSubscriptionId, cancel) {
      await client.subscriptions.update(providerSubscriptionId, { cancel_at_period_end: cancel });
    },
    async cancelNow(providerSubscriptionId) {
      try {
        // not at the period end: the subscription stops now and invoices nothing more (a DELETE:
        // Stripe takes no idempotency key on it, so a repeat is recognised below)
        await client.subscriptions.cancel(providerSubscriptionId);
      } catch (error) {
        // a repeat finds it ended already: done, whatever Stripe answered
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
        const subscription = await client.subscriptions.retrieve(providerSubscriptionId);
        if (!ENDED_SUBSCRIPTION.has(subscription.status)) throw error;
      }
    },
    async subscriptionEnded(providerSubscriptionId) {
      const subscription = await client.subscriptions.retrieve(providerSubscriptionId);
      return ENDED_SUBSCRIPTION.has(subscription.status);
    },
    async refund(paymentRef, opts = {}) {
      const target = await refundTarget(client, paymentRef);
      const idempotencyKey = opts.idempotencyKey ?? `refund-${paymentRef}`;
      try {
        // the key comes from our ledger (the reference, or the refund's own key): a retried job
        // refunds once, and the webhook that reports the refund finds the key in its metadata
        const refund = await client.refunds.create(
          { ...target, ...(opts.amountCents && { amount: opts.amountCents }), metadata: { reversal_key: idempotencyKey } },
          { idempotencyKey },
        );
        return { ref: refund.id };
      } catch (error) {
        if (error instanceof Stripe.errors.StripeError && error.code === 'charge_already_refunded') return { ref: null };
        throw error;
      }
    },
    async chargeInfo(charge) {
      const refs = [charge.chargeId, charge.paymentIntent, charge.invoice].filter((r): r is string => Boolean(r));
      // API 2025-03-31 and later: a subscription's invoice names its payment only in invoice_payments
      if (!charge.invoice && charge.paymentIntent) {
        const paid = await client.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: charge.paymentIntent }, limit: 1 });
        const invoice = str(paid.data[0]?.invoice);
        if (invoice) refs.push(invoice);
      }
      const listed = charge.paymentIntent
        ? await client.refunds.list({ payment_intent: charge.paymentIntent, limit: 100 })
        : charge.chargeId
          ? await client.refunds.list({ charge: charge.chargeId, limit: 100 })
          : { data: [] };
      const refunds = listed.data
        // a pending refund is on its way back (Stripe counts it in amount_refunded); failed and canceled ones are not
        .filter((r) => r.status === 'succeeded' || r.status === 'pending')
        .map((r) => ({ id: r.id, amountCents: r.amount, reversalKey: r.metadata?.reversal_key ?? null }));
      return { refs, refunds };
    },
    async createPayoutAccount(r) {
      const account = await client.accounts.create(
        { type: 'express', email: r.email, capabilities: { transfers: { requested: true } }, metadata: { userId: r.userId } },
        // one account per user, however often Set up payouts is pressed
        { idempotencyKey: `connect-account-${r.userId}` },
      );
      return { accountId: account.id, state: payoutAccountState(account as unknown as Loose) };
    },
    async payoutOnboardingUrl(accountId, urls) {
      const link = await client.accountLinks.create({ account: accountId, refresh_url: urls.refreshUrl, return_url: urls.returnUrl, type: 'account_onboarding' });
      return link.url;
    },
    async payoutAccountState(accountId) {
      return payoutAccountState((await client.accounts.retrieve(accountId)) as unknown as Loose);
    },
    async transfer(r) {
      try {
        // separate charges and transfers: fans paid the platform; each payout is one Transfer
        const transfer = await client.transfers.create(
          { amount: r.amountCents, currency: 'zar', destination: r.accountId, transfer_group: `payout-${r.payoutId}`, metadata: { payout_id: r.payoutId } },
          { idempotencyKey: r.idempotencyKey },
        );
        return { ok: true, ref: transfer.id };
      } catch (error) {
        if (isRefusal(error)) return { ok: false, reason: (error as Error).message };
        throw error;
      }
    },
    async balanceTotals(from, to) {
      const totals = { charges: 0, refunds: 0, disputes: 0, transfers: 0 };
      const list = client.balanceTransactions.list({ created: { gte: Math.floor(from.getTime() / 1000), lt: Math.floor(to.getTime() / 1000) }, limit: 100 });
      for await (const t of list) {
        const kind = BALANCE_KIND[t.type];
        // Stripe's fees are the platform's cost, not a creator's or a fan's money: not in the ledger
        if (kind) totals[kind] += t.amount;
      }
      return totals;
    },
    async createOneOffCheckout(r) {
      const metadata = { pendingId: r.pendingId, userId: r.userId };
      const expiry = checkoutExpiry();
      const session = await client.checkout.sessions.create(
        {
          mode: 'payment',
          customer_email: r.email,
          client_reference_id: r.userId,
          line_items: [{ quantity: 1, price_data: { currency: 'zar', unit_amount: r.amountCents, product_data: { name: r.description } } }],
          metadata,
          // payment_intent.succeeded names the pending charge too: whichever event comes first completes it
          payment_intent_data: { metadata, description: r.description },
          expires_at: expiry.expiresAt,
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
        },
        { idempotencyKey: `checkout-oneoff-${r.userId}-${r.idempotencyKey}-${expiry.window}` },
      );
      if (!session.url) throw new Error('Stripe returned no Checkout URL');
      return { url: session.url, ref: session.id };
    },
    async createCustomer(r) {
      const customer = await client.customers.create({ email: r.email, metadata: { userId: r.userId } }, { idempotencyKey: `customer-${r.userId}` });
      return customer.id;
    },
    async createCardSetup(r) {
      const session = await client.checkout.sessions.create({
        mode: 'setup',
        customer: r.customerId,
        // setup mode with the account's payment methods names the currency they will charge
        currency: 'zar',
        metadata: { purpose: 'card', userId: r.userId },
        success_url: r.successUrl,
        cancel_url: r.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe returned no Checkout URL');
      return { url: session.url };
    },
    async cardOfSetup(setupIntentId) {
      const intent = await client.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] });
      const method = intent.payment_method as Loose | null;
      const card = method?.card as Loose | undefined;
      const customerId = str(intent.customer);
      if (!method || !card || !customerId || typeof card.last4 !== 'string') throw new Error(`SetupIntent ${setupIntentId} saved no card`);
      return { customerId, paymentMethodId: method.id as string, brand: typeof card.brand === 'string' ? card.brand : 'card', last4: card.last4 };
    },
    async chargeCard(r) {
      return chargeSavedCard(client, r);
    },
    async removeCard(paymentMethodId) {
      try {
        await client.paymentMethods.detach(paymentMethodId);
      } catch (error) {
        // detached already (a repeat): done
        if (!(error instanceof Stripe.errors.StripeInvalidRequestError)) throw error;
      }
    },
    verifyWebhook(rawBody, signature) {
      if (!signature) throw new WebhookSignatureError('Missing Stripe-Signature header');
      let event;
      try {
        event = client.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : 'Invalid signature');
      }
      // Stripe's library refuses only signatures too old; one dated ahead of this clock by more
      // than the same window is refused too (a signature made for later is not one to replay)
      const signedAt = signatureTimestamp(signature);
      if (signedAt === null || signedAt - Math.floor(Date.now() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
        throw new WebhookSignatureError('Timestamp outside the tolerance zone (in the future)');
      }
      return toProviderEvent(event);
    },
  };
}
