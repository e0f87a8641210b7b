import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Free trials (issue 27 item 5). A creator's `trial_links` give N days of one tier free, to at
 * most `max_claims` fans, until `expires_at`; `claims` counts them and its check (claims <=
 * max_claims) backs the conditional update that takes a claim, so parallel claims can never go
 * past the limit. `trial_claims` holds one row per (creator, fan): a fan gets one trial per
 * creator, whichever link. The trial itself is an ordinary subscription whose first period is
 * free (`subscriptions.trial_ends_at` = the end of that period): the renewal job converts it at
 * its end at the agreed price, like any renewal (docs/payments.md, Free trials).
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table trial_links (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references users(id) on delete cascade,
    tier_id uuid not null references subscription_tiers(id) on delete cascade,
    code text not null unique,
    days integer not null check (days between 1 and 90),
    max_claims integer not null check (max_claims between 1 and 100000),
    claims integer not null default 0 check (claims >= 0 and claims <= max_claims),
    expires_at timestamptz not null,
    disabled_at timestamptz,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index trial_links_creator on trial_links (creator_id, created_at desc, id desc)`.execute(db);
  await sql`create table trial_claims (
    id uuid primary key default gen_random_uuid(),
    trial_link_id uuid not null references trial_links(id) on delete cascade,
    creator_id uuid not null references users(id) on delete cascade,
    fan_id uuid not null references users(id) on delete cascade,
    subscription_id uuid references subscriptions(id) on delete set null,
    created_at timestamptz not null default now(),
    unique (creator_id, fan_id)
  )`.execute(db);
  await sql`create index trial_claims_link on trial_claims (trial_link_id)`.execute(db);
  await sql`create index trial_claims_fan on trial_claims (fan_id)`.execute(db);
  await sql`alter table subscriptions add column trial_ends_at timestamptz`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table subscriptions drop column trial_ends_at`.execute(db);
  await sql`drop table trial_claims`.execute(db);
  await sql`drop table trial_links`.execute(db);
}
