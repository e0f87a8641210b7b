import { sql } from 'kysely';
import { isOneOf } from './lib/ddl';
import type { MigrationDb } from './lib/ddl';

/**
 * Pay-per-view posts (issue 27 item 2) and pinned posts (issue 29 item 5).
 *
 * A post may carry an unlock price (`unlock_price_cents`, R10 to R5,000) and who must pay it
 * (`unlock_mode`): 'everyone' — every fan pays, the creator's subscribers too (on top of their
 * subscription); 'non_subscribers' — the creator's active subscribers see it as part of their
 * subscription, anyone else may buy it alone. Both columns are set together or not at all.
 *
 * `post_unlocks` is who bought which post: one row per fan and post, pointing at the charge
 * (payments.purpose 'post_unlock'). A full refund or an open dispute of that charge sets
 * `revoked_at` (domain/billing/unlock-reversal.ts); a dispute won clears it; buying again after a
 * revocation points the same row at the new charge. The access rule reads rows with
 * `revoked_at is null` (domain/access/access.ts).
 *
 * payments.purpose's CHECK is replaced by one that also allows 'message_unlock' (pay-per-view
 * messages, built beside this): whichever of the two migrations runs last leaves both allowed.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`alter table posts
    add column unlock_price_cents integer,
    add column unlock_mode text,
    add column pinned_at timestamptz`.execute(db);
  await sql`alter table posts add constraint posts_unlock_price_check check (unlock_price_cents is null or unlock_price_cents between 1000 and 500000)`.execute(db);
  await sql`alter table posts add constraint posts_unlock_mode_check check ((unlock_mode is null) = (unlock_price_cents is null) and (unlock_mode is null or ${isOneOf('unlock_mode', ['everyone', 'non_subscribers'])}))`.execute(db);
  // the profile's pinned posts first (at most 3 per creator, enforced by the pin's transaction)
  await sql`create index posts_pinned on posts (creator_id, pinned_at desc) where pinned_at is not null`.execute(db);

  await sql`alter table payments drop constraint payments_purpose_check`.execute(db);
  await sql`alter table payments add constraint payments_purpose_check check (${isOneOf('purpose', ['subscription', 'tip', 'post_unlock', 'message_unlock'])})`.execute(db);

  await sql`create table post_unlocks (
    id uuid primary key default gen_random_uuid(),
    post_id uuid not null references posts(id) on delete cascade,
    fan_id uuid not null references users(id) on delete cascade,
    payment_id uuid not null references payments(id),
    created_at timestamptz not null default now(),
    revoked_at timestamptz
  )`.execute(db);
  // one unlock per fan and post: the access rule's lookup, and what makes a second charge impossible
  await sql`create unique index post_unlocks_fan_post on post_unlocks (fan_id, post_id)`.execute(db);
  await sql`create unique index post_unlocks_payment on post_unlocks (payment_id)`.execute(db);
  // the creator's per-post counts
  await sql`create index post_unlocks_post on post_unlocks (post_id) where revoked_at is null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table post_unlocks`.execute(db);
  await sql`alter table payments drop constraint payments_purpose_check`.execute(db);
  await sql`alter table payments add constraint payments_purpose_check check (${isOneOf('purpose', ['subscription', 'tip'])})`.execute(db);
  await sql`drop index posts_pinned`.execute(db);
  await sql`alter table posts drop column pinned_at, drop column unlock_mode, drop column unlock_price_cents`.execute(db);
}
