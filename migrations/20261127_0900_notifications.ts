import { sql } from 'kysely';
import type { MigrationDb } from './lib/ddl';

/**
 * Notifications (issue 28). `notifications` holds one row per thing a user is told about, written
 * by the code that causes it (domain/notifications/notify.ts); a burst about one subject shares a
 * row through `group_key` (likes of one post on one day, messages of one thread while unread),
 * which counts the actors and moves the row to the top (`last_at`). `shown` is the in-app channel:
 * a row the user keeps out of the centre still carries its push. `notification_preferences` holds
 * only the kinds × channels a user changed from the defaults (common/notifications.ts);
 * `push_subscriptions` one row per browser the user turned Push Notifications on in.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table notifications (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    kind text not null,
    actor_id uuid references users(id) on delete set null,
    actor_count integer not null default 1 check (actor_count >= 1),
    subject_type text not null,
    subject_id text,
    group_key text,
    shown boolean not null default true,
    read_at timestamptz,
    created_at timestamptz not null default now(),
    last_at timestamptz not null default now()
  )`.execute(db);
  await sql`create unique index notifications_group on notifications (user_id, group_key) where group_key is not null`.execute(db);
  await sql`create index notifications_page on notifications (user_id, last_at desc, id desc) where shown`.execute(db);
  await sql`create index notifications_unread on notifications (user_id) where shown and read_at is null`.execute(db);
  await sql`create index notifications_actor on notifications (actor_id) where actor_id is not null`.execute(db);
  await sql`create table notification_preferences (
    user_id uuid not null references users(id) on delete cascade,
    kind text not null,
    in_app boolean not null,
    email boolean not null,
    push boolean not null,
    updated_at timestamptz not null default now(),
    primary key (user_id, kind)
  )`.execute(db);
  await sql`create table push_subscriptions (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users(id) on delete cascade,
    endpoint text not null unique,
    p256dh text not null,
    auth text not null,
    created_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index push_subscriptions_user on push_subscriptions (user_id)`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`drop table push_subscriptions`.execute(db);
  await sql`drop table notification_preferences`.execute(db);
  await sql`drop table notifications`.execute(db);
}
