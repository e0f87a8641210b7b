import { randomUUID } from 'node:crypto';
import type { MediaVariant, PostStatus, ProfileVisibility, SubscriptionStatus } from '../../common/enums';
import { createSession, generateSessionToken } from '../../server/auth/session';
import { hashPassword } from '../../server/auth/password';
import type { DB } from '../../core/db/kysely';
import { recordSubscription } from '../../domain/subscriptions/write';
import type { Storage } from '../../core/storage/storage';

let cachedHash: Promise<string> | null = null;
export const FACTORY_PASSWORD = 'factory-password';

export interface MadeUser {
  id: string;
  email: string;
  username: string;
  password: string;
}

/** A confirmed user with profile and settings rows, written straight to the database. */
export async function makeUser(
  db: DB,
  opts: {
    username?: string;
    isCreator?: boolean;
    visibility?: ProfileVisibility;
    confirmed?: boolean;
    isVerified?: boolean;
    isPremium?: boolean;
    /**
     * identity verified by the payout account's provider (issue 47 item 1: nobody sells before it);
     * a creator's is unless told, so tests of tiers, prices and tips start from a creator who may sell
     */
    identityVerified?: boolean;
  } = {},
): Promise<MadeUser> {
  cachedHash ??= hashPassword(FACTORY_PASSWORD);
  const username = opts.username ?? `user${randomUUID().slice(0, 8)}`;
  const email = `${username}@example.test`;
  return db.transaction().execute(async (trx) => {
    const { id } = await trx
      .insertInto('users')
      .values({ email, password_hash: await cachedHash!, email_verified_at: opts.confirmed === false ? null : new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('profiles')
      .values({
        id,
        username,
        display_name: `${username[0]!.toUpperCase()}${username.slice(1)} Tester`,
        date_of_birth: '1990-01-01',
        is_creator: opts.isCreator ?? false,
        is_verified: opts.isVerified ?? false,
        is_premium: opts.isPremium ?? false,
      })
      .execute();
    await trx.insertInto('privacy_settings').values({ user_id: id, profile_visibility: opts.visibility ?? 'public' }).execute();
    await trx.insertInto('notification_settings').values({ user_id: id }).execute();
    await trx.insertInto('verification_status').values({ user_id: id, is_identity_verified: opts.identityVerified ?? opts.isCreator ?? false }).execute();
    return { id, email, username, password: FACTORY_PASSWORD };
  });
}

/** A session for `userId`; returns the cookie header value a browser would send. */
export async function makeSessionCookie(db: DB, userId: string): Promise<{ token: string; cookie: string; sessionId: string }> {
  const token = generateSessionToken();
  const session = await createSession(db, token, userId);
  return { token, cookie: `session=${token}`, sessionId: session.id };
}

export type FixtureKind = 'image' | 'video' | 'audio' | 'pdf' | 'document';

const FIXTURE_FILES: Record<FixtureKind, { variant: MediaVariant; ext: string; contentType: string }[]> = {
  image: [
    { variant: 'original', ext: 'jpg', contentType: 'image/jpeg' },
    { variant: 'web', ext: 'jpg', contentType: 'image/jpeg' },
    { variant: 'thumb', ext: 'jpg', contentType: 'image/jpeg' },
  ],
  video: [
    { variant: 'original', ext: 'mp4', contentType: 'video/mp4' },
    { variant: 'poster', ext: 'jpg', contentType: 'image/jpeg' },
  ],
  audio: [{ variant: 'original', ext: 'mp3', contentType: 'audio/mpeg' }],
  pdf: [{ variant: 'original', ext: 'pdf', contentType: 'application/pdf' }],
  document: [{ variant: 'original', ext: 'txt', contentType: 'text/plain; charset=utf-8' }],
};

const PIPELINE_IMAGE_SIZES: Partial<Record<MediaVariant, { width: number; height: number }>> = {
  original: { width: 1600, height: 1200 },
  web: { width: 1080, height: 810 },
  medium: { width: 720, height: 540 },
  thumb: { width: 320, height: 240 },
  preview: { width: 64, height: 48 },
};

/** The bytes a fixture file holds: recognisable per post and variant, 1,000 bytes long. */
export function fixtureBytes(postId: string, variant: MediaVariant): Buffer {
  const head = `${postId}:${variant}:`;
  return Buffer.from(head + 'x'.repeat(1000 - head.length));
}

export interface MadePost {
  id: string;
  creatorId: string;
  /** storage keys by variant */
  keys: Partial<Record<MediaVariant, string>>;
}

/**
 * A post with media rows and (when `storage` is given) the files in storage, the way the
 * media pipeline leaves them: `posts/<id>/<variant>.<ext>`; premium posts get a 'preview'.
 */
export async function makePost(
  db: DB,
  storage: Storage | null,
  opts: {
    creatorId: string;
    status?: PostStatus;
    isPremium?: boolean;
    kind?: FixtureKind | null;
    title?: string | null;
    text?: string | null;
    hashtags?: string[];
    createdAt?: Date;
    /** a scheduled post's time (an hour from now unless told) */
    publishAt?: Date;
    /** pay-per-view: its price in cents and who pays it */
    unlock?: { priceCents: number; mode: 'everyone' | 'non_subscribers' };
    /**
     * an image as the pipeline makes one since the 720 px size (issue 30 item 4): 1600 x 1200, web
     * 1080, medium 720 and thumb 320 px wide; without, one made before (every variant 640 x 360)
     */
    medium?: boolean;
  },
): Promise<MadePost> {
  const status = opts.status ?? 'published';
  const kind = opts.kind === undefined ? 'image' : opts.kind;
  const createdAt = opts.createdAt ?? new Date();
  const { id } = await db
    .insertInto('posts')
    .values({
      creator_id: opts.creatorId,
      title: opts.title === undefined ? 'A fixture post' : opts.title,
      post_text: opts.text === undefined ? 'Fixture text #fixture' : opts.text,
      hashtags: opts.hashtags ?? ['fixture'],
      is_premium: opts.isPremium ?? false,
      unlock_price_cents: opts.unlock?.priceCents ?? null,
      unlock_mode: opts.unlock?.mode ?? null,
      status,
      target_status: status === 'draft' ? 'draft' : status === 'scheduled' ? 'scheduled' : 'published',
      publish_at: status === 'scheduled' ? (opts.publishAt ?? new Date(Date.now() + 3_600_000)) : null,
      media_kind: kind,
      created_at: createdAt,
      updated_at: createdAt,
      published_at: status === 'published' ? createdAt : null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const files = kind ? [...FIXTURE_FILES[kind]] : [];
  if (kind === 'image' && opts.medium) files.push({ variant: 'medium', ext: 'webp', contentType: 'image/webp' });
  if (kind && (opts.isPremium || opts.unlock)) files.push({ variant: 'preview', ext: 'jpg', contentType: 'image/jpeg' });
  const keys: MadePost['keys'] = {};
  for (const file of files) {
    const key = `posts/${id}/${file.variant}.${file.ext}`;
    const bytes = fixtureBytes(id, file.variant);
    keys[file.variant] = key;
    if (storage) await storage.put(key, bytes, file.contentType);
    await db
      .insertInto('media_files')
      .values({
        post_id: id,
        variant: file.variant,
        storage_key: key,
        content_type: file.contentType,
        byte_size: bytes.length,
        ...(kind === 'image' && opts.medium
          ? PIPELINE_IMAGE_SIZES[file.variant]
          : { width: kind === 'image' || kind === 'video' ? 640 : null, height: kind === 'image' || kind === 'video' ? 360 : null }),
        duration_seconds: kind === 'video' || kind === 'audio' ? 12.5 : null,
      })
      .execute();
  }
  return { id, creatorId: opts.creatorId, keys };
}

/**
 * A subscription of `subscriberId` to `creatorId` (null: the platform's Premium tier), written
 * the only way the product writes one (`recordSubscription`: the subscription and the spec's
 * subscribers row together). A new 'VIP Club' tier of the creator unless `tierId` is given.
 */
export async function makeSubscription(
  db: DB,
  opts: { subscriberId: string; creatorId: string | null; status?: SubscriptionStatus; periodEnd?: Date; tierId?: string },
): Promise<{ subscriptionId: string; tierId: string }> {
  const tierId = opts.tierId ?? (await makeTier(db, opts.creatorId));
  const periodEnd = opts.periodEnd ?? new Date(Date.now() + 30 * 24 * 60 * 60_000);
  const periodStart = new Date(Math.min(Date.now(), periodEnd.getTime()) - 24 * 60 * 60_000);
  const subscriptionId = await recordSubscription(db, {
    subscriberId: opts.subscriberId,
    tierId,
    status: opts.status ?? 'active',
    periodStart,
    periodEnd,
  });
  return { subscriptionId, tierId };
}

async function makeTier(db: DB, creatorId: string | null): Promise<string> {
  if (creatorId === null) {
    const premium = await db.selectFrom('subscription_tiers').select('id').where('creator_id', 'is', null).where('name', '=', 'Premium').executeTakeFirstOrThrow();
    return premium.id;
  }
  // a creator's live tier names are unique (issue 11): fans of one creator share the factory's tier
  const existing = await db
    .selectFrom('subscription_tiers')
    .select('id')
    .where('creator_id', '=', creatorId)
    .where('name', '=', 'VIP Club')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  if (existing) return existing.id;
  const tier = await db
    .insertInto('subscription_tiers')
    .values({ creator_id: creatorId, name: 'VIP Club', price_cents: 50_00, payment_interval: 'monthly' })
    .returning('id')
    .executeTakeFirstOrThrow();
  return tier.id;
}

/** A fan's unlock of a pay-per-view post, with its charge (a payment row as insertPayment writes one, without the ledger). */
export async function makeUnlock(db: DB, opts: { fanId: string; postId: string; revoked?: boolean }): Promise<{ paymentId: string }> {
  const post = await db.selectFrom('posts').select(['creator_id', 'unlock_price_cents']).where('id', '=', opts.postId).executeTakeFirstOrThrow();
  const { id: paymentId } = await db
    .insertInto('payments')
    .values({
      user_id: opts.fanId,
      creator_id: post.creator_id,
      tier_id: null,
      subscription_id: null,
      description: 'Unlock — fixture',
      idempotency_key: randomUUID(),
      amount_cents: post.unlock_price_cents ?? 1000,
      provider: 'builtin',
      provider_ref: null,
      status: 'succeeded',
      purpose: 'post_unlock',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db.insertInto('post_unlocks').values({ post_id: opts.postId, fan_id: opts.fanId, payment_id: paymentId, revoked_at: opts.revoked ? new Date() : null }).execute();
  return { paymentId };
}
