import { sql } from 'kysely';
import { isOneOf } from './lib/ddl';
import type { MigrationDb } from './lib/ddl';

/**
 * Pay-per-view messages and messages to many (issue 27 items 3 and 4).
 * - messages.price: a message whose file opens for its recipient only once bought (its text stays
 *   readable); a price needs a file.
 * - payments.purpose 'message_unlock' with payments.message_id: the charge that opened it; at most
 *   one charge per (fan, message), whatever the retries.
 * - mass_messages: one creator's message to an audience, delivered by the `mass-messages` queue in
 *   batches; `cursor` is the last recipient id delivered, moved in the batch's own transaction, and
 *   (mass_message_id, recipient_id) is unique on messages, so a job killed halfway resumes from the
 *   cursor and a batch run twice writes nothing twice.
 * - A mass message's copies share its one file, so the file is unique per message only outside a
 *   mass message.
 * The purpose CHECK is rewritten with every purpose known on any branch ('post_unlock' is the
 * pay-per-view posts' one), so whichever of the two migrations runs last keeps both.
 */
export async function up(db: MigrationDb): Promise<void> {
  await sql`create table mass_messages (
    id uuid primary key default gen_random_uuid(),
    creator_id uuid not null references users(id) on delete cascade,
    audience text not null,
    tier_id uuid references subscription_tiers(id) on delete set null,
    content text,
    attachment_id uuid references message_attachments(id),
    price numeric(10, 2),
    client_id text not null,
    status text not null default 'queued',
    cursor uuid,
    recipients_total integer not null default 0,
    created_at timestamptz not null default now(),
    finished_at timestamptz,
    constraint mass_messages_audience_check check (${isOneOf('audience', ['active', 'tier', 'expired', 'buyers'])}),
    constraint mass_messages_status_check check (${isOneOf('status', ['queued', 'sending', 'sent'])}),
    constraint mass_messages_tier_check check (audience = 'tier' or tier_id is null),
    constraint mass_messages_price_check check (price is null or (price > 0 and attachment_id is not null)),
    constraint mass_messages_not_empty_check check (btrim(coalesce(content, '')) <> '' or attachment_id is not null)
  )`.execute(db);
  await sql`create unique index mass_messages_creator_client_key on mass_messages (creator_id, client_id)`.execute(db);
  await sql`create index mass_messages_creator_created_idx on mass_messages (creator_id, created_at desc, id desc)`.execute(db);

  await sql`alter table messages
    add column price numeric(10, 2),
    add column mass_message_id uuid references mass_messages(id) on delete set null`.execute(db);
  await sql`alter table messages add constraint messages_price_check check (price is null or (price > 0 and attachment_id is not null))`.execute(db);
  await sql`create unique index messages_mass_recipient_key on messages (mass_message_id, recipient_id) where mass_message_id is not null`.execute(db);
  await sql`drop index messages_attachment_id_key`.execute(db);
  await sql`create unique index messages_attachment_id_key on messages (attachment_id) where attachment_id is not null and mass_message_id is null`.execute(db);
  await sql`create index messages_attachment_id_idx on messages (attachment_id) where attachment_id is not null`.execute(db);

  await sql`alter table payments add column message_id uuid references messages(id) on delete set null`.execute(db);
  await sql`alter table payments drop constraint payments_purpose_check`.execute(db);
  await sql`alter table payments add constraint payments_purpose_check check (${isOneOf('purpose', ['subscription', 'tip', 'post_unlock', 'message_unlock'])})`.execute(db);
  await sql`alter table payments add constraint payments_message_id_check check (message_id is null or purpose = 'message_unlock')`.execute(db);
  await sql`create unique index payments_message_unlock_key on payments (user_id, message_id)
    where purpose = 'message_unlock' and kind = 'charge' and message_id is not null`.execute(db);
  await sql`create index payments_message_id_idx on payments (message_id) where message_id is not null`.execute(db);
}

export async function down(db: MigrationDb): Promise<void> {
  await sql`alter table payments drop constraint payments_message_id_check`.execute(db);
  await sql`alter table payments drop column message_id`.execute(db);
  await sql`drop index messages_attachment_id_idx`.execute(db);
  await sql`drop index messages_attachment_id_key`.execute(db);
  await sql`alter table messages drop column mass_message_id, drop column price`.execute(db);
  await sql`create unique index messages_attachment_id_key on messages (attachment_id) where attachment_id is not null`.execute(db);
  await sql`drop table mass_messages`.execute(db);
}
