import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { discountedPrice } from '../../common/discounted-price';
import type { PaymentInterval, SubscriptionStatus } from '../../common/enums';
import type { Database } from '../../core/db/schema';
import { PREMIUM_PERIOD_DAYS, periodEndFor } from '../../domain/billing/periods';
import type { SubscriptionRecord } from '../../domain/subscriptions/write';
import { BULK_FAN_COUNT, bulkFan, CREATORS, emailOf, FANS, type DemoCreator, type DemoTier } from './cast';

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export interface Person {
  id: string;
  username: string;
  displayName: string;
  email: string;
  creator?: DemoCreator;
  admin?: boolean;
}

export interface PeoplePlan {
  people: Map<string, Person>;
  /** creator username -> ids of fans with an active subscription */
  activeSubscribers: Map<string, string[]>;
  rows: {
    users: Rows<'users'>;
    profiles: Rows<'profiles'>;
    privacy_settings: Rows<'privacy_settings'>;
    notification_settings: Rows<'notification_settings'>;
    verification_status: Rows<'verification_status'>;
    media_settings: Rows<'media_settings'>;
    subscription_tiers: Rows<'subscription_tiers'>;
    /** written with their subscribers rows by recordSubscriptions, the one writer of both */
    subscriptions: SubscriptionRecord[];
    payments: Rows<'payments'>;
  };
}

const DAY = 24 * 60 * 60_000;

const INTERVAL_DAYS: Record<PaymentInterval, number> = { weekly: 7, monthly: 28, annually: 365 };

/** Users, profiles, settings, tiers and who pays whom. */
export function planPeople(passwordHash: string, premiumTierId: string, now: Date, random: () => number): PeoplePlan {
  const plan: PeoplePlan = {
    people: new Map(),
    activeSubscribers: new Map(),
    rows: {
      users: [], profiles: [], privacy_settings: [], notification_settings: [], verification_status: [],
      media_settings: [], subscription_tiers: [], subscriptions: [], payments: [],
    },
  };
  const { rows } = plan;
  const daysAgo = (min: number, max: number) => new Date(now.getTime() - (min + random() * (max - min)) * DAY);

  const addPerson = (person: Omit<Person, 'id'>, dateOfBirth: string, joined: Date) => {
    const id = randomUUID();
    plan.people.set(person.username, { id, ...person });
    const c = person.creator;
    rows.users.push({
      id, email: person.email, password_hash: passwordHash, role: person.admin ? 'admin' : 'user',
      email_verified_at: joined, created_at: joined, updated_at: joined,
    });
    rows.profiles.push({
      id, username: person.username, display_name: person.displayName, date_of_birth: dateOfBirth,
      bio: c?.bio ?? null, categories: c?.categories ?? [], is_creator: Boolean(c), is_verified: c?.verified ?? false,
      is_premium: c?.premium ?? false, custom_links: JSON.stringify(c?.links ?? []), social_links: JSON.stringify(c?.social ?? {}),
      created_at: joined, updated_at: joined,
    });
    rows.privacy_settings.push({ user_id: id, profile_visibility: c?.visibility ?? 'public' });
    rows.notification_settings.push({ user_id: id, marketing_emails: random() < 0.3 });
    // every demo creator sells (tiers, prices, tips), so every one is verified (issue 47 item 1): the
    // badge-verified ones as if by the provider, the rest by the built-in provider's test verification
    rows.verification_status.push({
      user_id: id, is_email_verified: true, is_identity_verified: c?.verified ?? false,
      identity_test_verified_at: c && !c.verified ? joined : null,
    });
    if (c) rows.media_settings.push({ creator_id: id, watermark_enabled: c.watermark.enabled, watermark_text: c.watermark.text, watermark_position: c.watermark.position });
    return id;
  };

  // the creators joined before every fan: a fan who becomes a creator later never ranks above them
  // in the featured strip (longest-standing first after verified and Premium)
  for (const creator of CREATORS) {
    const { username, displayName } = creator;
    addPerson({ username, displayName, email: emailOf(username), creator }, creator.dateOfBirth, daysAgo(210, 400));
  }
  for (const fan of FANS) {
    addPerson({ username: fan.username, displayName: fan.displayName, email: emailOf(fan.username), admin: fan.admin }, fan.dateOfBirth, daysAgo(30, 200));
  }
  const bulkIds = Array.from({ length: BULK_FAN_COUNT }, (_, i) =>
    addPerson(bulkFan(i), `${1975 + (i % 25)}-0${1 + (i % 9)}-1${i % 10}`, daysAgo(5, 150)),
  );

  const subscribe = (fanId: string, creatorId: string | null, tierId: string, tier: DemoTier, status: SubscriptionStatus, creatorName?: string) => {
    // an active period started within the last interval, so it ends in the future; an expired one ended a while ago
    const periods = status === 'active' ? random() * 0.8 : 2 + random();
    const start = new Date(now.getTime() - periods * INTERVAL_DAYS[tier.interval] * DAY);
    // the platform upgrade runs 30 days, as on the spec's payment screen; creator tiers follow their interval
    const end = periodEndFor(start, { creator_id: creatorId, payment_interval: tier.interval });
    const subscriptionId = randomUUID();
    // the ledger (issue 11): active weekly and monthly fans renewed a few times before this
    // period, so earnings charts and payment histories have weeks of rows; one payment per period
    const renewals = status === 'active' && tier.interval !== 'annually' ? Math.floor(random() * (tier.interval === 'weekly' ? 10 : 3)) : 0;
    const periodMs = (creatorId ? INTERVAL_DAYS[tier.interval] : PREMIUM_PERIOD_DAYS) * DAY;
    const firstStart = new Date(start.getTime() - renewals * periodMs);
    rows.subscriptions.push({
      id: subscriptionId, subscriberId: fanId, tierId, status, periodStart: start, periodEnd: end,
      provider: 'builtin', createdAt: firstStart, updatedAt: status === 'active' ? start : end,
    });
    for (let i = renewals; i >= 0; i--) {
      const paidAt = new Date(start.getTime() - i * periodMs);
      rows.payments.push({
        user_id: fanId, tier_id: tierId, creator_id: creatorId, subscription_id: subscriptionId,
        description: creatorName ? `${creatorName} — ${tier.name}` : tier.name, amount_cents: discountedPrice(tier.priceCents, tier.discount), provider: 'builtin',
        provider_ref: `builtin_demo_${subscriptionId.slice(0, 8)}_${i}`, status: 'succeeded', created_at: paidAt,
      });
    }
  };

  for (const [index, creator] of CREATORS.entries()) {
    const creatorId = plan.people.get(creator.username)!.id;
    const tiers = creator.tiers.map((tier) => ({ tier, id: randomUUID() }));
    for (const { tier, id } of tiers) {
      rows.subscription_tiers.push({
        id, creator_id: creatorId, name: tier.name, description: tier.description, price_cents: tier.priceCents,
        payment_interval: tier.interval, discount_percentage: tier.discount ?? null,
      });
    }
    const named = FANS.flatMap((f) =>
      f.subscribesTo
        .filter((s) => s.replace('expired:', '') === creator.username)
        .map((s) => ({ fanId: plan.people.get(f.username)!.id, expired: s.startsWith('expired:') })),
    );
    // each creator draws from a different stretch of the bulk fans, so audiences overlap only partly
    const bulk = Array.from({ length: creator.bulkSubscribers }, (_, k) => ({
      fanId: bulkIds[(k + index * 7) % BULK_FAN_COUNT]!,
      expired: false,
    }));
    const active: string[] = [];
    for (const { fanId, expired } of [...named, ...bulk]) {
      const { tier, id } = tiers[Math.floor(random() * tiers.length)]!;
      subscribe(fanId, creatorId, id, tier, expired ? 'expired' : 'active', creator.displayName);
      if (!expired) active.push(fanId);
    }
    plan.activeSubscribers.set(creator.username, active);
    if (creator.premium) {
      const premium: DemoTier = { name: 'Premium', description: '', priceCents: 150_00, interval: 'monthly' };
      subscribe(creatorId, null, premiumTierId, premium, 'active');
    }
  }
  return plan;
}
