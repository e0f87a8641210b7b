import { sql } from 'kysely';
import { PAYMENT_INTERVALS, SUBSCRIPTION_STATUSES } from '../common/enums';
import { isOneOf, userRef, withCreatedAt, withId, withTimestamps, type MigrationDb } from './lib/ddl';

export async function up(db: MigrationDb): Promise<void> {
  await db.schema
    .createTable('subscription_tiers')
    .$call(withId)
    // null: the platform's own tier (Premium), which belongs to no creator
    .addColumn('creator_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('price', 'numeric(10, 2)', (c) => c.notNull())
    .addColumn('payment_interval', 'text', (c) => c.notNull())
    .addColumn('discount_percentage', 'integer')
    .$call(withTimestamps)
    .addCheckConstraint('subscription_tiers_price_check', sql`price >= 0`)
    .addCheckConstraint('subscription_tiers_interval_check', isOneOf('payment_interval', PAYMENT_INTERVALS))
    .addCheckConstraint('subscription_tiers_discount_check', sql`discount_percentage between 0 and 100`)
    .execute();
  await db.schema.createIndex('subscription_tiers_creator_price_idx').on('subscription_tiers').columns(['creator_id', 'price']).execute();
  // the spec finds the platform tier by its name, so that name must be unambiguous
  await sql`create unique index subscription_tiers_platform_name_key on subscription_tiers (name) where creator_id is null`.execute(db);

  await db.schema
    .createTable('subscriptions')
    .$call(withId)
    .$call((t) => userRef(t, 'subscriber_id'))
    // restrict: a tier someone pays for cannot vanish under them
    .addColumn('tier_id', 'uuid', (c) => c.notNull().references('subscription_tiers.id').onDelete('restrict'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('current_period_start', 'timestamptz', (c) => c.notNull())
    .addColumn('current_period_end', 'timestamptz', (c) => c.notNull())
    .$call(withTimestamps)
    .addCheckConstraint('subscriptions_status_check', isOneOf('status', SUBSCRIPTION_STATUSES))
    .addCheckConstraint('subscriptions_period_check', sql`current_period_end >= current_period_start`)
    .execute();
  await db.schema
    .createIndex('subscriptions_subscriber_idx')
    .on('subscriptions')
    .columns(['subscriber_id', 'status', 'current_period_end'])
    .execute();
  await db.schema.createIndex('subscriptions_tier_id_idx').on('subscriptions').column('tier_id').execute();

  await db.schema
    .createTable('subscribers')
    .$call(withId)
    .$call((t) => userRef(t, 'creator_id'))
    .$call((t) => userRef(t, 'subscriber_id'))
    .addColumn('tier_id', 'uuid', (c) => c.notNull().references('subscription_tiers.id').onDelete('restrict'))
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(withTimestamps)
    .addUniqueConstraint('subscribers_creator_subscriber_key', ['creator_id', 'subscriber_id'])
    .addCheckConstraint('subscribers_status_check', isOneOf('status', SUBSCRIPTION_STATUSES))
    .addCheckConstraint('subscribers_not_self_check', sql`creator_id <> subscriber_id`)
    .execute();
  await db.schema.createIndex('subscribers_creator_status_idx').on('subscribers').columns(['creator_id', 'status']).execute();
  await db.schema.createIndex('subscribers_subscriber_id_idx').on('subscribers').column('subscriber_id').execute();
  await db.schema.createIndex('subscribers_tier_id_idx').on('subscribers').column('tier_id').execute();

  await db.schema
    .createTable('payments')
    .$call(withId)
    .$call((t) => userRef(t, 'user_id'))
    .addColumn('tier_id', 'uuid', (c) => c.notNull().references('subscription_tiers.id').onDelete('restrict'))
    // the charge outlives the subscription it paid for
    .addColumn('subscription_id', 'uuid', (c) => c.references('subscriptions.id').onDelete('set null'))
    .addColumn('amount', 'numeric(10, 2)', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('ZAR'))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('provider_ref', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .$call(withCreatedAt)
    .addCheckConstraint('payments_amount_check', sql`amount >= 0`)
    .addCheckConstraint('payments_currency_check', sql`currency ~ '^[A-Z]{3}$'`)
    .addCheckConstraint('payments_status_check', isOneOf('status', ['succeeded', 'failed', 'refunded']))
    .execute();
  await sql`create index payments_user_created_idx on payments (user_id, created_at desc)`.execute(db);
  await sql`create index payments_subscription_id_idx on payments (subscription_id) where subscription_id is not null`.execute(db);
  await db.schema.createIndex('payments_tier_id_idx').on('payments').column('tier_id').execute();

  // Spec: "a tier named Premium exists", R150 per month (LIMITS.premiumPriceRand).
  await db
    .insertInto('subscription_tiers')
    .values({
      creator_id: null,
      name: 'Premium',
      description: 'Unlimited links, a verified badge and a featured listing on the homepage.',
      price: '150.00',
      payment_interval: 'monthly',
    })
    .execute();
}

export async function down(db: MigrationDb): Promise<void> {
  for (const table of ['payments', 'subscribers', 'subscriptions', 'subscription_tiers']) {
    await db.schema.dropTable(table).execute();
  }
}
