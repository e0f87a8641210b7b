import { formatCents } from '../../common/money';
import { BRAND } from '../../common/texts';
import { readCents } from '../../core/db/cents';
import { capabilitiesOf } from '../../core/payments/capabilities';
import { renewalPrice } from '../../domain/billing/prices';
import { BUNDLE_TEXTS } from '../../common/bundle-texts';
import type { NotificationKind } from '../../common/notifications';
import { wantsEmail } from '../../domain/notifications/email-consent';
import { findMailRecipient } from '../mail/email-tokens';
import { mailTransportFor, type OutgoingMail } from '../mail/transport';
import type { MailDeps, MailHandler, MailOutcome } from './mail';

/**
 * Billing mail (issue 11): a receipt after every charge, a reminder before an annual renewal, and
 * (issue 22) word that a renewal charge failed and what to do: 'activity' mail
 * (domain/notifications/email-consent.ts), sent only with e-mail notifications on. The notice that
 * a subscription ends because its creator turned private or hidden, and that a Checkout payment
 * failed, are about the fan's money and always go. The jobs carry ids only; the worker reads the
 * rest when it sends.
 */

const day = (d: Date) => d.toLocaleDateString('en-ZA', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

function compose(to: string, subject: string, lines: string[], link: string): OutgoingMail {
  const esc = (v: string) => v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
  return {
    to,
    subject,
    text: [...lines, '', `Manage your subscriptions: ${link}`, '', `— ${BRAND.name}`].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">',
      ...lines.map((l) => `<p>${esc(l)}</p>`),
      `<p><a href="${esc(link)}">Manage your subscriptions</a></p>`,
      `<p>— ${esc(BRAND.name)}</p>`,
      '</body></html>',
    ].join('\n'),
    link,
  };
}

/** `consent: 'activity'`: only with activity mail on; 'always': a notice about the fan's money, sent whatever the settings. */
async function deliver(
  job: { id?: string; timestamp: number },
  deps: MailDeps,
  userId: string,
  mail: (to: string) => OutgoingMail,
  consent: 'activity' | 'always' = 'activity',
  /** the notification kind this mail is the e-mail of: its box in the kinds × channels table counts too */
  notification?: NotificationKind,
): Promise<MailOutcome> {
  if (!job.id) throw new Error('billing mail job has no id');
  const recipient = await findMailRecipient(deps.db, userId);
  if (!recipient) return { skipped: 'no-account' };
  if (consent === 'activity' && !(await wantsEmail(deps.db, userId, 'activity', notification))) return { skipped: 'no-consent' };
  const transport = deps.transport ?? mailTransportFor(deps.config, deps.log);
  const key = { jobId: job.id, createdAt: new Date(job.timestamp) };
  const earlier = await transport.findDelivery(recipient.email, key);
  if (earlier) return earlier;
  return transport.send(mail(recipient.email), key);
}

export const sendReceipt: MailHandler<'billing-receipt'> = async (job, deps) => {
  const payment = await deps.db
    .selectFrom('payments')
    .select(['user_id', 'amount_cents', 'description', 'created_at', 'status', 'provider'])
    .where('id', '=', job.data.paymentId)
    .executeTakeFirst();
  if (!payment?.user_id || payment.status !== 'succeeded') return { skipped: 'gone' };
  const amount = formatCents(readCents(payment.amount_cents));
  return deliver(job, deps, payment.user_id, (to) =>
    compose(
      to,
      `Your ${BRAND.name} receipt: ${amount}`,
      [
        `Thank you for your payment of ${amount} on ${day(payment.created_at)}.`,
        `For: ${payment.description}`,
        capabilitiesOf(payment.provider)?.isTest === false ? 'Paid by card through Stripe.' : 'Recorded by the built-in test provider: no card was charged.',
      ],
      `${deps.config.appUrl}/settings/account/subscriptions`,
    ),
  );
};

const TRIAL_INTERVAL_WORDS = { weekly: 'every week', monthly: 'every month', annually: 'every year' } as const;

export const sendRenewalReminder: MailHandler<'renewal-reminder'> = async (job, deps) => {
  const sub = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .leftJoin('profiles as pr', 'pr.id', 't.creator_id')
    .leftJoin('tier_bundles as b', (j) => j.onRef('b.tier_id', '=', 's.tier_id').onRef('b.periods', '=', 's.bundle_periods'))
    .select([
      's.subscriber_id', 's.status', 's.cancel_at_period_end', 's.current_period_end', 's.trial_ends_at', 's.price_cents as agreed_cents', 's.bundle_periods',
      't.name', 't.price_cents', 't.discount_percentage', 't.payment_interval', 'pr.display_name', 'b.percent as bundle_percent',
    ])
    .where('s.id', '=', job.data.subscriptionId)
    .executeTakeFirst();
  // cancelled or already renewed since: nothing to remind of
  if (!sub || sub.status !== 'active' || sub.cancel_at_period_end || sub.current_period_end.toISOString() !== job.data.periodEnd) {
    return { skipped: 'gone' };
  }
  const tier = { price_cents: readCents(sub.price_cents), discount_percentage: sub.discount_percentage };
  const amount = formatCents(renewalPrice(readCents(sub.agreed_cents), tier, { periods: sub.bundle_periods, percent: sub.bundle_percent }));
  // a free trial converting to paid (domain/billing/trial.ts) says so, and what it will charge
  if (sub.trial_ends_at?.getTime() === sub.current_period_end.getTime()) {
    return deliver(job, deps, sub.subscriber_id, (to) =>
      compose(
        to,
        `Your free trial ${sub.display_name ? `of ${sub.display_name} ` : ''}ends on ${day(sub.current_period_end)}`,
        [
          `Your free trial ${sub.display_name ? `of ${sub.display_name} ` : ''}(${sub.name}) ends on ${day(sub.current_period_end)}. Then you pay ${amount} ${TRIAL_INTERVAL_WORDS[sub.payment_interval]}.`,
          'To stop it, cancel before then: nothing is charged, and you keep access until the trial ends.',
        ],
        `${deps.config.appUrl}/settings/account/subscriptions`,
      ),
    );
  }
  // a bundle renews as the same bundle, all its periods charged at once (docs/payments.md, Bundles)
  if (sub.bundle_periods) {
    const length = BUNDLE_TEXTS.length(sub.bundle_periods, sub.payment_interval);
    const bundle = BUNDLE_TEXTS.bundleName(sub.bundle_periods, sub.payment_interval);
    return deliver(job, deps, sub.subscriber_id, (to) =>
      compose(
        to,
        `Your ${sub.display_name ?? BRAND.name} bundle renews on ${day(sub.current_period_end)}`,
        [
          `Your ${bundle} ${sub.display_name ? `of ${sub.display_name} ` : ''}(${sub.name}) renews on ${day(sub.current_period_end)} for ${amount}, for another ${length}.`,
          'To stop it, cancel before then: you keep access until the end of the bundle you paid for.',
        ],
        `${deps.config.appUrl}/settings/account/subscriptions`,
      ),
    );
  }
  return deliver(job, deps, sub.subscriber_id, (to) =>
    compose(
      to,
      `Your ${sub.display_name ?? BRAND.name} subscription renews on ${day(sub.current_period_end)}`,
      [
        `Your annual subscription ${sub.display_name ? `to ${sub.display_name} ` : ''}(${sub.name}) renews on ${day(sub.current_period_end)} for ${amount}.`,
        'To stop it, cancel before then: you keep access until the end of the year you paid for.',
      ],
      `${deps.config.appUrl}/settings/account/subscriptions`,
    ),
  );
};

export const sendCreatorUnavailable: MailHandler<'creator-unavailable'> = async (job, deps) => {
  const sub = await deps.db
    .selectFrom('subscriptions as s')
    .innerJoin('subscription_tiers as t', 't.id', 's.tier_id')
    .leftJoin('profiles as pr', 'pr.id', 't.creator_id')
    .select(['s.subscriber_id', 's.status', 's.creator_unavailable_at', 's.current_period_end', 't.name', 'pr.display_name'])
    .where('s.id', '=', job.data.subscriptionId)
    .executeTakeFirst();
  // resumed since (the creator is visible again) or gone: nothing to tell
  if (!sub || sub.status !== 'active' || !sub.creator_unavailable_at) return { skipped: 'gone' };
  const creator = sub.display_name ?? 'this creator';
  return deliver(
    job,
    deps,
    sub.subscriber_id,
    (to) =>
      compose(
        to,
        `Your subscription to ${creator} ends on ${day(sub.current_period_end)}`,
        [
          `${creator}'s profile is no longer available, so your subscription (${sub.name}) will not renew: it ends on ${day(sub.current_period_end)} and you will not be charged again.`,
          'Nothing needs doing on your side.',
        ],
        `${deps.config.appUrl}/settings/account/subscriptions`,
      ),
    'always',
  );
};

/** An async Checkout payment failed (docs/payments.md, "Paid means paid"): sent whatever the settings say. */
export const sendCheckoutPaymentFailed: MailHandler<'checkout-payment-failed'> = async (job, deps) => {
  const tier = await deps.db
    .selectFrom('subscription_tiers as t')
    .leftJoin('profiles as pr', 'pr.id', 't.creator_id')
    .select(['t.name', 'pr.display_name', 'pr.username'])
    .where('t.id', '=', job.data.tierId)
    .executeTakeFirst();
  const what = tier ? (tier.display_name ? `${tier.display_name} — ${tier.name}` : tier.name) : 'your subscription';
  const again = tier?.username ? `${deps.config.appUrl}/${tier.username}/subscribe` : `${deps.config.appUrl}/settings/account/subscriptions`;
  return deliver(
    job,
    deps,
    job.data.userId,
    (to) =>
      compose(
        to,
        `Your ${BRAND.name} payment did not go through`,
        [
          `Your payment for ${what} did not go through, so the subscription has not started and nothing was charged.`,
          `To try again with another payment method: ${again}`,
        ],
        `${deps.config.appUrl}/settings/account/subscriptions`,
      ),
    'always',
  );
};

/**
 * A renewal charge failed (issue 22 item 9), once per period (the job names that period's `failed`
 * ledger row): access lasts through the grace while the charge is retried, then it ends; the
 * subscriptions screen says the same and has Cancel. Skipped once the subscription renewed or
 * ended since (nothing left to do).
 */
export const sendRenewalFailed: MailHandler<'renewal-failed'> = async (job, deps) => {
  const row = await deps.db
    .selectFrom('payments as p')
    .innerJoin('subscriptions as s', 's.id', 'p.subscription_id')
    .select(['p.user_id', 'p.amount_cents', 'p.description', 'p.status', 's.status as subscription_status', 's.past_due_since', 's.grace_until', 's.current_period_end'])
    .where('p.id', '=', job.data.paymentId)
    .executeTakeFirst();
  if (!row?.user_id || row.status !== 'failed' || row.subscription_status !== 'active' || !row.past_due_since) return { skipped: 'gone' };
  const until = day(row.grace_until ?? row.current_period_end);
  const amount = formatCents(readCents(row.amount_cents));
  return deliver(job, deps, row.user_id, (to) =>
    compose(
      to,
      `Your payment of ${amount} failed`,
      [
        `We could not charge ${amount} to renew your subscription (${row.description}).`,
        `You keep access until ${until} while we keep trying the charge. If it still fails by then, the subscription ends, and you can subscribe again from the creator's page.`,
        'To stop it instead, cancel it on your subscriptions page: you will not be charged again.',
      ],
      `${deps.config.appUrl}/settings/account/subscriptions`,
    ),
    'activity',
    'renewal-failed',
  );
};

/** A payout the provider refused (issue 26): why, and that the amount is back in the balance. Always sent (it is their money). */
export const sendPayoutFailed: MailHandler<'payout-failed'> = async (job, deps) => {
  const payout = await deps.db
    .selectFrom('payouts')
    .select(['creator_id', 'amount_cents', 'status', 'failure_reason'])
    .where('id', '=', job.data.payoutId)
    .executeTakeFirst();
  if (!payout?.creator_id || payout.status !== 'failed') return { skipped: 'gone' };
  const amount = formatCents(readCents(payout.amount_cents));
  return deliver(
    job,
    deps,
    payout.creator_id,
    (to) =>
      compose(
        to,
        `Your payout of ${amount} did not go through`,
        [
          `Your payout of ${amount} was refused by the payment provider: ${payout.failure_reason ?? 'no reason given'}.`,
          `The ${amount} is back in your available balance. Check your payout account's details, then withdraw again or wait for the next weekly payout.`,
        ],
        `${deps.config.appUrl}/create?tab=earnings`,
      ),
    'always',
  );
};
