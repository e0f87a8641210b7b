import { creatorAccountLines } from '../helpers/ledger';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TRIAL_TEXTS } from '../../common/trial-texts';
import { fixedClock } from '../../core/clock';
import { builtinProvider } from '../../core/payments/builtin';
import { runBillingMaintenance } from '../../domain/billing/maintenance';
import { DAY_MS } from '../../domain/billing/periods';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makePost, makeUser } from '../helpers/factories';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { DEFAULT_EARNINGS_POLICY } from '../../domain/earnings/policy';

/**
 * Free trials (issue 27 item 5): a creator's link gives N days of a tier free to at most M fans,
 * once per fan and creator; the trial is a subscription whose first period is free, converted to
 * paid at its end by the renewal job, once, unless the fan cancelled.
 */
const T0 = new Date(Math.floor(Date.now() / 60_000) * 60_000);
const clock = fixedClock(T0);
const app = useTestServer({ clock });

async function creatorWithLink(opts: { days?: number; maxClaims?: number } = {}) {
  clock.set(T0);
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const asCreator = await clientAs(app, creator.id);
  const tier = await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 20 });
  const link = await asCreator.trpc.trials.create.mutate({
    tierId: tier.id, days: opts.days ?? 7, maxClaims: opts.maxClaims ?? 5, expiresAt: new Date(T0.getTime() + 30 * DAY_MS),
  });
  return { creator, asCreator, tier, link };
}

const claimInput = (code: string, confirmedAmount = '40.00') => ({ code, idempotencyKey: randomUUID(), confirmedAmount });
const paymentsOf = (userId: string) =>
  app.deps.db.selectFrom('payments').select(['amount_cents', 'status', 'system_key']).where('user_id', '=', userId).orderBy('created_at').execute();

describe('trial links', () => {
  it('a fan claims a trial: premium media with no charge; it converts to paid at its end with one charge, under two workers and a rerun', async () => {
    const { creator, link } = await creatorWithLink({ days: 7 });
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(403);

    const view = await asFan.trpc.trials.view.query({ code: link.code });
    expect(view).toMatchObject({ state: 'available', days: 7, tier: { name: 'Gold', discountedPrice: '40.00' }, claimsLeft: 5 });
    // a double press: one trial, the same answer
    const [a, b] = await Promise.all([asFan.trpc.trials.claim.mutate(claimInput(link.code)), asFan.trpc.trials.claim.mutate(claimInput(link.code))]);
    expect(a.subscriptionId).toBe(b.subscriptionId);
    expect(a.trialEndsAt).toEqual(new Date(T0.getTime() + 7 * DAY_MS));
    expect(await paymentsOf(fan.id)).toEqual([]);
    expect((await asFan.fetch(`/media/${post.id}/original`)).status).toBe(200);
    expect((await asFan.trpc.trials.view.query({ code: link.code })).state).toBe('claimed');
    expect((await app.deps.db.selectFrom('trial_links').select('claims').where('id', '=', link.id).executeTakeFirstOrThrow()).claims).toBe(1);

    // two days before the end: the reminder says what it will charge; nothing is charged yet
    clock.set(new Date(T0.getTime() + 5 * DAY_MS + 60_000));
    expect(await billingMaintenance({ ...app.deps, clock })).toMatchObject({ renewed: 0, reminders: 1 });
    const mails = (await app.outbox()).filter((m) => m.to === fan.email);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringContaining('Your free trial of')]);
    expect(mails[0]!.text).toContain('Then you pay R40.00 every month');

    // the end: two workers at once, then a rerun, charge once
    clock.set(new Date(T0.getTime() + 7 * DAY_MS + 60_000));
    const runs = await Promise.all([1, 2].map(() => runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })));
    expect(runs.map((r) => r.renewed).sort()).toEqual([0, 1]);
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0 });
    expect(await paymentsOf(fan.id)).toEqual([{ amount_cents: '4000', status: 'succeeded', system_key: `renewal-${a.subscriptionId}-${a.trialEndsAt.getTime()}` }]);
    const sub = await app.deps.db.selectFrom('subscriptions').select(['status', 'current_period_start', 'current_period_end']).where('id', '=', a.subscriptionId).executeTakeFirstOrThrow();
    expect(sub).toMatchObject({ status: 'active', current_period_start: a.trialEndsAt });
    expect(sub.current_period_end.getTime()).toBeGreaterThan(a.trialEndsAt.getTime() + 27 * DAY_MS);
    // the ledger has the conversion's split like any renewal
    expect((await creatorAccountLines(app.deps.db, creator.id)).map((l) => [l.journal, l.credit])).toEqual([['charge', 3200]]);
  });

  it('a trial cancelled before its end ends uncharged', async () => {
    const { link } = await creatorWithLink({ days: 3 });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const { subscriptionId } = await asFan.trpc.trials.claim.mutate(claimInput(link.code));
    await asFan.trpc.subscriptions.cancel.mutate({ id: subscriptionId });
    clock.set(new Date(T0.getTime() + 3 * DAY_MS + 60_000));
    expect(await runBillingMaintenance({ db: app.deps.db, provider: builtinProvider, clock, earnings: DEFAULT_EARNINGS_POLICY })).toMatchObject({ renewed: 0, expired: 1 });
    expect(await paymentsOf(fan.id)).toEqual([]);
  });

  it('20 parallel claims by 20 fans of a link with 5 claims: exactly 5 trials', async () => {
    const { link, asCreator } = await creatorWithLink({ maxClaims: 5 });
    const fans = await Promise.all(Array.from({ length: 20 }, () => makeUser(app.deps.db)));
    const clients = await Promise.all(fans.map((f) => clientAs(app, f.id)));
    const results = await Promise.allSettled(clients.map((c) => c.trpc.trials.claim.mutate(claimInput(link.code))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(new Set(refused.map((r) => (r.reason as Error).message))).toEqual(new Set([TRIAL_TEXTS.full]));
    const subs = await app.deps.db.selectFrom('trial_claims').select('subscription_id').where('trial_link_id', '=', link.id).execute();
    expect(subs).toHaveLength(5);
    const [listed] = (await asCreator.trpc.trials.listMine.query({})).links;
    expect(listed).toMatchObject({ id: link.id, claims: 5, maxClaims: 5 });
  });

  it('one trial per fan and creator; refuses expired, disabled, own links, a changed price and the already subscribed', async () => {
    const { creator, asCreator, tier, link } = await creatorWithLink();
    const second = await asCreator.trpc.trials.create.mutate({ tierId: tier.id, days: 14, maxClaims: 5, expiresAt: new Date(T0.getTime() + DAY_MS) });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(asFan.trpc.trials.claim.mutate(claimInput(link.code, '50.00')), 'CONFLICT', TRIAL_TEXTS.priceChanged('R40.00'));
    await asFan.trpc.trials.claim.mutate(claimInput(link.code));
    expect((await asFan.trpc.trials.view.query({ code: second.code })).state).toBe('used');
    await expectTrpcError(asFan.trpc.trials.claim.mutate(claimInput(second.code)), 'CONFLICT', TRIAL_TEXTS.alreadyUsed);
    await expectTrpcError(asCreator.trpc.trials.claim.mutate(claimInput(link.code)), 'FORBIDDEN', TRIAL_TEXTS.selfClaim);

    const subscribed = await makeUser(app.deps.db);
    const asSubscribed = await clientAs(app, subscribed.id);
    await asSubscribed.trpc.subscriptions.subscribe.mutate({ tierId: tier.id, idempotencyKey: randomUUID(), confirmedAmount: '40.00' });
    await expectTrpcError(asSubscribed.trpc.trials.claim.mutate(claimInput(link.code)), 'CONFLICT', TRIAL_TEXTS.alreadySubscribed);

    const late = await makeUser(app.deps.db);
    const asLate = await clientAs(app, late.id);
    clock.set(new Date(T0.getTime() + 2 * DAY_MS));
    await expectTrpcError(asLate.trpc.trials.claim.mutate(claimInput(second.code)), 'CONFLICT', TRIAL_TEXTS.expired);
    await asCreator.trpc.trials.disable.mutate({ id: link.id });
    await expectTrpcError(asLate.trpc.trials.claim.mutate(claimInput(link.code)), 'CONFLICT', TRIAL_TEXTS.disabled);
    expect((await asLate.trpc.trials.view.query({ code: link.code })).state).toBe('disabled');
    // the fan who claimed keeps the trial
    expect(await app.deps.db.selectFrom('subscriptions').select('status').where('subscriber_id', '=', fan.id).executeTakeFirstOrThrow()).toEqual({ status: 'active' });
    void creator;
  });

  it("another creator's ids do nothing: their tier, their link to disable; a hidden creator's link is not found", async () => {
    const { tier, link } = await creatorWithLink();
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    await expectTrpcError(
      asOther.trpc.trials.create.mutate({ tierId: tier.id, days: 7, maxClaims: 5, expiresAt: new Date(T0.getTime() + DAY_MS) }),
      'NOT_FOUND',
      TRIAL_TEXTS.tierNotFound,
    );
    await expectTrpcError(asOther.trpc.trials.disable.mutate({ id: link.id }), 'NOT_FOUND', TRIAL_TEXTS.notFound);
    expect((await asOther.trpc.trials.listMine.query({})).links).toEqual([]);
    expect((await app.deps.db.selectFrom('trial_links').select('disabled_at').where('id', '=', link.id).executeTakeFirstOrThrow()).disabled_at).toBeNull();

    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(asFan.trpc.trials.create.mutate({ tierId: tier.id, days: 7, maxClaims: 5, expiresAt: new Date(T0.getTime() + DAY_MS) }), 'FORBIDDEN');
    await expectTrpcError(asFan.trpc.trials.view.query({ code: 'nope-not-a-link' }), 'NOT_FOUND', TRIAL_TEXTS.notFound);
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const hiddenTier = await (await clientAs(app, hidden.id)).trpc.tiers.create.mutate({ name: 'H', price: '10', paymentInterval: 'weekly' });
    const hiddenLink = await (await clientAs(app, hidden.id)).trpc.trials.create.mutate({ tierId: hiddenTier.id, days: 7, maxClaims: 5, expiresAt: new Date(T0.getTime() + DAY_MS) });
    await expectTrpcError(asFan.trpc.trials.view.query({ code: hiddenLink.code }), 'NOT_FOUND', TRIAL_TEXTS.notFound);
    await expectTrpcError(asFan.trpc.trials.claim.mutate(claimInput(hiddenLink.code, '10.00')), 'NOT_FOUND', TRIAL_TEXTS.notFound);
    // validation: days, claims and a past expiry
    const { asCreator } = await creatorWithLink();
    const mine = (await asCreator.trpc.tiers.listMine.query())[0]!;
    await expectTrpcError(asCreator.trpc.trials.create.mutate({ tierId: mine.id, days: 0, maxClaims: 5, expiresAt: new Date(T0.getTime() + DAY_MS) }), 'BAD_REQUEST');
    await expectTrpcError(asCreator.trpc.trials.create.mutate({ tierId: mine.id, days: 7, maxClaims: 5, expiresAt: new Date(T0.getTime() - DAY_MS) }), 'BAD_REQUEST', TRIAL_TEXTS.expiresInvalid);
  });

  it('issue 47 item 3: a link with no tier chosen asks to choose one (a field error), not "Subscription tier not found"', async () => {
    clock.set(T0);
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    await asCreator.trpc.tiers.create.mutate({ name: 'Gold', price: '50', paymentInterval: 'monthly', discountPercentage: 0 });
    const input = { tierId: '', days: 7, maxClaims: 50, expiresAt: new Date(T0.getTime() + 30 * DAY_MS) };
    const error = await expectTrpcError(asCreator.trpc.trials.create.mutate(input), 'BAD_REQUEST');
    expect((error.data as unknown as { validation: { fieldErrors: Record<string, string[]> } }).validation.fieldErrors.tierId).toEqual([TRIAL_TEXTS.tierRequired]);
    expect(error.message).not.toContain('not found');
    // an id that names nothing is still not found
    await expectTrpcError(asCreator.trpc.trials.create.mutate({ ...input, tierId: 'nope' }), 'NOT_FOUND', 'Subscription tier not found');
  });
});
