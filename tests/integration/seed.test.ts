import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_KINDS, type MediaKind } from '../../common/enums';
import { verifyPassword } from '../../server/auth/password';
import { DiskStorage } from '../../core/storage/disk';
import { seedDemo } from '../../scripts/seed/demo';
import { createTestDb, type TestDatabase } from '../helpers/test-db';

let t: TestDatabase;
let storageDir: string;
let storage: DiskStorage;
let first: { created: boolean };
const log: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
  storageDir = await mkdtemp(path.join(tmpdir(), 'seed-test-'));
  storage = new DiskStorage(storageDir);
  first = await seedDemo({ db: t.db, storage, log: (line) => log.push(line) });
}, 120_000);

afterAll(async () => {
  await t?.destroy();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
});

const read = async (key: string) => buffer((await storage.get(key)).stream);

/** What the bytes of each kind's original must start with (or satisfy) to be a real file. */
const looksLike: Record<MediaKind, (bytes: Buffer) => boolean> = {
  image: (b) => b[0] === 0xff && b[1] === 0xd8,
  video: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  audio: (b) => b.subarray(0, 3).toString('latin1') === 'ID3' || (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0),
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(-6).toString('latin1').includes('%%EOF'),
  document: (b) => b.length > 0 && Buffer.from(b.toString('utf8'), 'utf8').equals(b),
};

describe('seedDemo', () => {
  it('creates the demo and says so', () => {
    expect(first).toEqual({ created: true });
    expect(log.join('\n')).toMatch(/demo-password/);
    expect(log.join('\n')).toMatch(/ava@demo\.test/);
  });

  it('has creators of every visibility and standing', async () => {
    const creators = await t.db
      .selectFrom('profiles')
      .innerJoin('privacy_settings', 'privacy_settings.user_id', 'profiles.id')
      .innerJoin('media_settings', 'media_settings.creator_id', 'profiles.id')
      .select(['username', 'is_verified', 'is_premium', 'profile_visibility', 'categories'])
      .where('is_creator', '=', true)
      .execute();
    expect(creators.length).toBeGreaterThanOrEqual(6);
    const visible = creators.filter((c) => c.profile_visibility === 'public');
    expect(visible.filter((c) => c.is_verified).length).toBeGreaterThanOrEqual(3);
    expect(visible.some((c) => c.is_verified && c.is_premium)).toBe(true);
    expect(visible.some((c) => !c.is_verified && c.is_premium)).toBe(true);
    expect(visible.some((c) => !c.is_verified && !c.is_premium)).toBe(true);
    expect(creators.filter((c) => c.profile_visibility === 'private')).toHaveLength(1);
    expect(creators.filter((c) => c.profile_visibility === 'hidden')).toHaveLength(1);
    expect(creators.every((c) => c.categories.every((x) => ['Art', 'Music', 'Gaming', 'Technology'].includes(x)))).toBe(true);
  });

  it('gives every account a confirmed e-mail, settings and the shared password', async () => {
    const users = await t.db
      .selectFrom('users')
      .leftJoin('privacy_settings', 'privacy_settings.user_id', 'users.id')
      .leftJoin('notification_settings', 'notification_settings.user_id', 'users.id')
      .leftJoin('verification_status', 'verification_status.user_id', 'users.id')
      .select(['email', 'role', 'email_verified_at', 'password_hash', 'profile_visibility', 'email_notifications', 'is_email_verified'])
      .execute();
    expect(users.length).toBeGreaterThanOrEqual(40);
    for (const u of users) {
      expect(u.email).toMatch(/@demo\.test$/);
      expect(u.email_verified_at).toBeInstanceOf(Date);
      expect(u.profile_visibility).not.toBeNull();
      expect(u.email_notifications).not.toBeNull();
      expect(u.is_email_verified).toBe(true);
    }
    expect(users.filter((u) => u.role === 'admin').map((u) => u.email)).toEqual(['admin@demo.test']);
    expect(await verifyPassword(users[0]!.password_hash, 'demo-password')).toBe(true);
  });

  it('stores real files for every media kind', async () => {
    for (const kind of MEDIA_KINDS) {
      const post = await t.db
        .selectFrom('posts')
        .select('id')
        .where('media_kind', '=', kind)
        .where('status', '=', 'published')
        .executeTakeFirst();
      expect(post, kind).toBeDefined();
      const files = await t.db.selectFrom('media_files').selectAll().where('post_id', '=', post!.id).execute();
      const original = files.find((f) => f.variant === 'original');
      expect(original, kind).toBeDefined();
      const bytes = await read(original!.storage_key);
      expect(looksLike[kind](bytes), `${kind} original is a real ${kind}`).toBe(true);
      for (const f of files) {
        expect(await storage.stat(f.storage_key), f.storage_key).toEqual({ size: Number(f.byte_size), contentType: f.content_type });
        if (f.variant !== 'original') expect(looksLike.image(await read(f.storage_key)), f.storage_key).toBe(true);
      }
      if (kind === 'image') expect(files.map((f) => f.variant).sort()).toEqual(expect.arrayContaining(['original', 'thumb', 'web']));
      if (kind === 'video') {
        expect(files.map((f) => f.variant)).toContain('poster');
        expect(Number(original!.duration_seconds)).toBeGreaterThan(3);
      }
      if (kind === 'audio') expect(Number(original!.duration_seconds)).toBeGreaterThan(3);
    }
  });

  it('writes a PDF whose cross-reference table points at its objects', async () => {
    const pdf = await t.db
      .selectFrom('media_files')
      .select('storage_key')
      .where('content_type', '=', 'application/pdf')
      .executeTakeFirstOrThrow();
    const text = (await read(pdf.storage_key)).toString('latin1');
    const xrefAt = Number(/startxref\n(\d+)/.exec(text)?.[1]);
    expect(text.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...text.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets.length).toBeGreaterThan(3);
    offsets.forEach((offset, i) => expect(text.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('gives every premium post a blurred preview', async () => {
    const premium = await t.db
      .selectFrom('posts')
      .leftJoin('media_files', (j) => j.onRef('media_files.post_id', '=', 'posts.id').on('media_files.variant', '=', 'preview'))
      .select(['posts.media_kind', 'media_files.storage_key', 'media_files.width'])
      .where('posts.is_premium', '=', true)
      .execute();
    expect(new Set(premium.map((p) => p.media_kind)).size).toBeGreaterThanOrEqual(3);
    for (const p of premium) {
      expect(p.storage_key, `${p.media_kind} preview`).not.toBeNull();
      expect(p.width).toBeLessThanOrEqual(64);
    }
  });

  it('has active subscriptions, in both tables, with counts that differ by creator', async () => {
    const now = new Date();
    const active = await t.db
      .selectFrom('subscribers')
      .innerJoin('subscriptions', (j) =>
        j.onRef('subscriptions.subscriber_id', '=', 'subscribers.subscriber_id').onRef('subscriptions.tier_id', '=', 'subscribers.tier_id'),
      )
      .select(['subscribers.creator_id'])
      .where('subscribers.status', '=', 'active')
      .where('subscriptions.status', '=', 'active')
      .where('subscriptions.current_period_end', '>', now)
      .execute();
    const counts = new Map<string, number>();
    for (const row of active) counts.set(row.creator_id, (counts.get(row.creator_id) ?? 0) + 1);
    expect(active.length).toBeGreaterThan(20);
    expect(new Set(counts.values()).size).toBeGreaterThanOrEqual(4);

    const expired = await t.db.selectFrom('subscriptions').select('current_period_end').where('status', '=', 'expired').execute();
    expect(expired.length).toBeGreaterThanOrEqual(1);
    expect(expired.every((s) => s.current_period_end < now)).toBe(true);
  });

  it('has drafts, likes, comments with replies, bookmarks and messages', async () => {
    const count = async (table: 'post_likes' | 'comments' | 'bookmarks' | 'messages' | 'message_reactions') =>
      Number((await t.db.selectFrom(table).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
    expect(await count('post_likes')).toBeGreaterThan(50);
    expect(await count('comments')).toBeGreaterThan(3);
    expect(await count('bookmarks')).toBeGreaterThan(0);
    expect(await count('messages')).toBeGreaterThan(3);
    expect(await count('message_reactions')).toBeGreaterThan(0);
    const replies = await t.db.selectFrom('comments').select('id').where('parent_id', 'is not', null).execute();
    expect(replies.length).toBeGreaterThan(0);
    const drafts = await t.db.selectFrom('posts').select('published_at').where('status', '=', 'draft').execute();
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(drafts.every((d) => d.published_at === null)).toBe(true);
  });

  it('does nothing the second time', async () => {
    const posts = await t.db.selectFrom('posts').select('id').execute();
    expect(await seedDemo({ db: t.db, storage })).toEqual({ created: false });
    expect(await t.db.selectFrom('posts').select('id').execute()).toHaveLength(posts.length);
  });
});
