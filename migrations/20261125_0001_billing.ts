import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Issue 11, subscriptions and money (docs/payments.md):
 * - tiers are archived instead of deleted once someone subscribed; a creator's live tier names
 *   are unique (case-insensitive); a creator's tier costs more than nothing;
 * - a subscription knows whether it stops at its period end, whether its last renewal failed (past
 *   due, with access until `grace_until`), the tier it moves to at its next renewal, its provider
 *   and the provider's id for it, and which period end its renewal reminder was sent for;
 * - payments are the ledger: a client's idempotency key (unique per payer) makes a repeated
 *   request one charge; a provider's charge id is recorded once; each row keeps a description
 *   ('creator — tier') and points at its creator, so a deleted account leaves every other user's
 *   ledger whole (the deleted side's ids become null);
 * - billing_events: each provider webhook event applied once.
 * Deleting a creator now takes their tiers' subscriptions with the tiers (cascade), instead of
 * being refused.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table subscription_tiers add column archived_at timestamptz`.execute(db);
  await sql`alter table subscription_tiers add constraint subscription_tiers_creator_price_check check (creator_id is null or price > 0)`.execute(db);
  await sql`create unique index subscription_tiers_creator_name_key on subscription_tiers (creator_id, lower(name)) where archived_at is null and creator_id is not null`.execute(db);

  await sql`alter table subscriptions
    add column cancel_at_period_end boolean not null default false,
    add column past_due_since timestamptz,
    add column grace_until timestamptz,
    add column next_tier_id uuid references subscription_tiers (id) on delete set null,
    add column provider text not null default 'builtin',
    add column provider_subscription_id text,
    add column reminded_period_end timestamptz`.execute(db);
  await sql`create unique index subscriptions_provider_subscription_key on subscriptions (provider, provider_subscription_id) where provider_subscription_id is not null`.execute(db);
  await sql`create index subscriptions_next_tier_id_idx on subscriptions (next_tier_id) where next_tier_id is not null`.execute(db);
  // the maintenance job's scan: active subscriptions by period end
  await sql`create index subscriptions_active_period_end_idx on subscriptions (current_period_end) where status = 'active'`.execute(db);
  // the active test is now "period end or grace in the future": the count's index carries both
  await sql`drop index subscriptions_tier_active_idx`.execute(db);
  await sql`create index subscriptions_tier_active_idx on subscriptions (tier_id, current_period_end) include (subscriber_id, grace_until) where status = 'active'`.execute(db);
  await sql`alter table subscriptions drop constraint subscriptions_tier_id_fkey,
    add constraint subscriptions_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete cascade`.execute(db);
  await sql`alter table subscribers drop constraint subscribers_tier_id_fkey,
    add constraint subscribers_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete cascade`.execute(db);

  await sql`alter table payments
    alter column user_id drop not null,
    alter column tier_id drop not null,
    drop constraint payments_user_id_fkey,
    add constraint payments_user_id_fkey foreign key (user_id) references users (id) on delete set null,
    drop constraint payments_tier_id_fkey,
    add constraint payments_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete set null,
    add column creator_id uuid references users (id) on delete set null,
    add column description text not null default '',
    add column idempotency_key text`.execute(db);
  await sql`update payments p set creator_id = t.creator_id,
    description = case when t.creator_id is null then t.name else coalesce(pr.display_name, '') || ' — ' || t.name end
    from subscription_tiers t left join profiles pr on pr.id = t.creator_id where t.id = p.tier_id`.execute(db);
  await sql`create unique index payments_user_idempotency_key on payments (user_id, idempotency_key) where idempotency_key is not null`.execute(db);
  await sql`create unique index payments_provider_ref_key on payments (provider, provider_ref) where provider_ref is not null`.execute(db);
  await sql`create index payments_creator_created_idx on payments (creator_id, created_at) where status = 'succeeded'`.execute(db);

  await sql`create table billing_events (
    provider text not null,
    event_id text not null,
    type text not null,
    received_at timestamptz not null default now(),
    primary key (provider, event_id)
  )`.execute(db);

  // The Premium plan promises only what Premium gives: unlimited links and the featured order.
  await sql`update subscription_tiers set description = 'Unlimited links and a featured listing on the homepage.'
    where creator_id is null and name = 'Premium'`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table billing_events`.execute(db);
  await sql`drop index payments_creator_created_idx`.execute(db);
  await sql`drop index payments_provider_ref_key`.execute(db);
  await sql`drop index payments_user_idempotency_key`.execute(db);
  await sql`delete from payments where user_id is null or tier_id is null`.execute(db);
  await sql`alter table payments drop column idempotency_key, drop column description, drop column creator_id,
    drop constraint payments_tier_id_fkey,
    add constraint payments_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete restrict,
    drop constraint payments_user_id_fkey,
    add constraint payments_user_id_fkey foreign key (user_id) references users (id) on delete cascade,
    alter column tier_id set not null,
    alter column user_id set not null`.execute(db);
  await sql`alter table subscribers drop constraint subscribers_tier_id_fkey,
    add constraint subscribers_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete restrict`.execute(db);
  await sql`alter table subscriptions drop constraint subscriptions_tier_id_fkey,
    add constraint subscriptions_tier_id_fkey foreign key (tier_id) references subscription_tiers (id) on delete restrict`.execute(db);
  await sql`drop index subscriptions_tier_active_idx`.execute(db);
  await sql`create index subscriptions_tier_active_idx on subscriptions (tier_id, current_period_end) include (subscriber_id) where status = 'active'`.execute(db);
  await sql`drop index subscriptions_active_period_end_idx`.execute(db);
  await sql`drop index subscriptions_next_tier_id_idx`.execute(db);
  await sql`drop index subscriptions_provider_subscription_key`.execute(db);
  await sql`alter table subscriptions drop column reminded_period_end, drop column provider_subscription_id, drop column provider,
    drop column next_tier_id, drop column grace_until, drop column past_due_since, drop column cancel_at_period_end`.execute(db);
  await sql`drop index subscription_tiers_creator_name_key`.execute(db);
  await sql`alter table subscription_tiers drop constraint subscription_tiers_creator_price_check`.execute(db);
  await sql`alter table subscription_tiers drop column archived_at`.execute(db);
}
