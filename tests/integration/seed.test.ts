import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEDIA_KINDS, type MediaKind } from '../../common/enums';
import { verifyPassword } from '../../server/auth/password';
import { DiskStorage } from '../../core/storage/disk';
import sharp from 'sharp';
import { demoImageSource } from '../../scripts/seed/content';
import { seedDemo } from '../../scripts/seed/demo';
import { diskMediaCache } from '../../scripts/seed/media-cache';
import { reconcileDay } from '../../domain/earnings/reconciliation';
import { builtinProvider } from '../../core/payments/builtin';
import { createTestDb, type TestDatabase } from '../helpers/test-db';

let t: TestDatabase;
let storageDir: string;
let cacheDir: string;
let storage: DiskStorage;
let first: { created: boolean };
const log: string[] = [];

beforeAll(async () => {
  t = await createTestDb();
  storageDir = await mkdtemp(path.join(tmpdir(), 'seed-test-'));
  cacheDir = await mkdtemp(path.join(tmpdir(), 'seed-test-cache-'));
  storage = new DiskStorage(storageDir);
  // an empty media cache, as on a machine's first `npm start`: every file goes through the pipeline
  first = await seedDemo({ db: t.db, storage, log: (line) => log.push(line), mediaCache: diskMediaCache(cacheDir) });
  // every post goes through the media pipeline (ffmpeg included): minutes on a loaded machine
}, 300_000);

afterAll(async () => {
  await t?.destroy();
  if (storageDir) await rm(storageDir, { recursive: true, force: true });
  if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
});

const read = async (key: string) => buffer((await storage.get(key)).stream);

/** A served picture: JPEG or WebP. */
const isPicture = (b: Buffer) => looksLike.image(b) || (b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP');

/** What the bytes of each kind's original must start with (or satisfy) to be a real file. */
const looksLike: Record<MediaKind, (bytes: Buffer) => boolean> = {
  image: (b) => b[0] === 0xff && b[1] === 0xd8,
  video: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp',
  // the pipeline serves sound as AAC in M4A, as for an upload
  audio: (b) => b.subarray(4, 8).toString('latin1') === 'ftyp' && b.subarray(8, 11).toString('latin1') === 'M4A',
  pdf: (b) => b.subarray(0, 5).toString('latin1') === '%PDF-' && b.subarray(-6).toString('latin1').includes('%%EOF'),
  document: (b) => b.length > 0 && Buffer.from(b.toString('utf8'), 'utf8').equals(b),
};

describe('seedDemo', () => {
  it('creates the demo and says so', () => {
    expect(first).toEqual({ created: true });
    expect(log.join('\n')).toMatch(/demo-password/);
    expect(log.join('\n')).toMatch(/ava@demo\.test/);
  });

  it('books that reconcile: every demo payment and payout is in the ledger, every journal balances (issue 45)', async () => {
    const days = await sql<{ day: Date }>`select distinct date_trunc('day', created_at, 'UTC') as day from payments
      union select distinct date_trunc('day', settled_at, 'UTC') from payouts where settled_at is not null`.execute(t.db);
    expect(days.rows.length).toBeGreaterThan(0);
    for (const { day } of days.rows) {
      expect(await reconcileDay({ db: t.db, providerFor: () => builtinProvider }, new Date(day)), String(day)).toEqual([]);
    }
    const off = await sql`select journal_id from journal_lines group by journal_id having sum(amount_cents) <> 0`.execute(t.db);
    expect(off.rows).toEqual([]);
  });

  it('pins one post of maya, the only pin of the demo (issue 29 item 5)', async () => {
    const pinned = await t.db
      .selectFrom('posts')
      .innerJoin('profiles', 'profiles.id', 'posts.creator_id')
      .select(['username', 'title', 'status'])
      .where('pinned_at', 'is not', null)
      .execute();
    expect(pinned).toEqual([{ username: 'maya', title: 'Split keyboard build', status: 'published' }]);
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
    // every demo creator may sell (issue 47 item 1): verified by the provider or by the test verification
    const identities = await t.db
      .selectFrom('profiles')
      .innerJoin('verification_status as v', 'v.user_id', 'profiles.id')
      .select(['v.is_identity_verified', 'v.identity_test_verified_at'])
      .where('is_creator', '=', true)
      .execute();
    expect(identities.every((v) => v.is_identity_verified || v.identity_test_verified_at !== null)).toBe(true);
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
        if (f.variant !== 'original') expect(isPicture(await read(f.storage_key)), f.storage_key).toBe(true);
      }
      if (kind === 'image') {
        // the display sizes a srcset offers, WebP where smaller (the demo's pictures: all)
        expect(files.map((f) => f.variant).sort()).toEqual(expect.arrayContaining(['medium', 'original', 'thumb', 'web']));
        for (const f of files.filter((f) => ['web', 'medium', 'thumb'].includes(f.variant))) expect(f.content_type, f.variant).toBe('image/webp');
      }
      if (kind === 'video') {
        expect(files.map((f) => f.variant)).toContain('poster');
        expect(Number(original!.duration_seconds)).toBeGreaterThan(3);
      }
      if (kind === 'audio') expect(Number(original!.duration_seconds)).toBeGreaterThan(3);
    }
  });

  // Issue 14 item 9: the demo's media went through the upload pipeline, so a creator's watermark
  // setting shows: the stored picture differs from the picture uploaded where the mark sits, and
  // only there; a creator with the watermark off gets the picture back unmarked.
  it('lays each creator\'s watermark on their seeded pictures, where their settings put it', async () => {
    /** Mean difference per channel (0-255) between the stored original and the source, in a box of fractions of the frame. */
    const difference = async (stored: Buffer, source: Buffer, box: { left: number; top: number; width: number; height: number }) => {
      const { width = 0, height = 0 } = await sharp(source).metadata();
      const region = { left: Math.round(box.left * width), top: Math.round(box.top * height), width: Math.round(box.width * width), height: Math.round(box.height * height) };
      const [a, b] = await Promise.all([stored, source].map((img) => sharp(img).extract(region).removeAlpha().raw().toBuffer()));
      let sum = 0;
      for (let i = 0; i < a!.length; i++) sum += Math.abs(a![i]! - b![i]!);
      return sum / a!.length;
    };
    const storedOriginal = async (title: string) => {
      const row = await t.db
        .selectFrom('posts')
        .innerJoin('media_files', 'media_files.post_id', 'posts.id')
        .select(['media_files.storage_key', 'media_files.width', 'media_files.height'])
        .where('posts.title', '=', title)
        .where('media_files.variant', '=', 'original')
        .executeTakeFirstOrThrow();
      expect([row.width, row.height]).toEqual([1600, 1200]);
      return read(row.storage_key);
    };
    const bottomRight = { left: 0.6, top: 0.86, width: 0.4, height: 0.14 };
    const topLeft = { left: 0, top: 0, width: 0.4, height: 0.14 };

    // ava: '© Ava Moreau' at the bottom right
    const ava = await storedOriginal('Golden hour study');
    const avaSource = await demoImageSource('ava', 'Golden hour study');
    const avaMarked = await difference(ava, avaSource, bottomRight);
    const avaElsewhere = await difference(ava, avaSource, topLeft);
    expect(avaMarked).toBeGreaterThan(4);
    expect(avaMarked).toBeGreaterThan(avaElsewhere * 3);

    // maya: '@maya' at the top left
    const maya = await storedOriginal('Split keyboard build');
    const mayaSource = await demoImageSource('maya', 'Split keyboard build');
    expect(await difference(maya, mayaSource, topLeft)).toBeGreaterThan((await difference(maya, mayaSource, bottomRight)) * 3);

    // leo turned the watermark off: re-encoding noise only, in both corners
    const leo = await storedOriginal('Studio corner');
    const leoSource = await demoImageSource('leo', 'Studio corner');
    expect(await difference(leo, leoSource, bottomRight)).toBeLessThan(avaMarked / 3);
  });

  it('queues the HLS ladder of every demo video, so the demo streams once the workers run (issue 49)', async () => {
    const videos = await t.db
      .selectFrom('posts')
      .innerJoin('media_files', 'media_files.post_id', 'posts.id')
      .select('posts.id')
      .distinct()
      .where('posts.media_kind', '=', 'video')
      .where('posts.status', '=', 'published')
      .execute();
    expect(videos.length).toBeGreaterThan(0);
    const queued = await t.db.selectFrom('outbox').select('data').where('name', '=', 'build-ladder').execute();
    expect(queued.map((row) => row.data.postId).sort()).toEqual(videos.map((v) => v.id).sort());
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

  it('has a payments ledger behind every subscription: a discounted tier, weeks of renewals, fans’ histories (issue 11)', async () => {
    const unpaid = await t.db
      .selectFrom('subscriptions')
      .leftJoin('payments', 'payments.subscription_id', 'subscriptions.id')
      .select('subscriptions.id')
      .where('payments.id', 'is', null)
      .execute();
    expect(unpaid).toEqual([]);
    const discounted = await t.db.selectFrom('subscription_tiers').select('id').where('discount_percentage', '>', 0).execute();
    expect(discounted.length).toBeGreaterThan(0);
    const sam = await t.db.selectFrom('users').select('id').where('email', '=', 'sam@demo.test').executeTakeFirstOrThrow();
    const history = await t.db.selectFrom('payments').select(['description', 'creator_id']).where('user_id', '=', sam.id).execute();
    expect(history.length).toBeGreaterThanOrEqual(2);
    expect(history.every((p) => p.creator_id !== null && p.description.includes(' — '))).toBe(true);
    // earnings charts have more than one week of takings
    const weeks = await t.db
      .selectFrom('payments')
      .select((eb) => eb.fn.count<string>(sql`distinct date_trunc('week', created_at)`).as('n'))
      .where('created_at', '>', new Date(Date.now() - 84 * 24 * 3_600_000))
      .executeTakeFirstOrThrow();
    expect(Number(weeks.n)).toBeGreaterThanOrEqual(6);
  });

  it("fills the demo fan's inbox: conversations in the chat list, a stored photo and PDF, a reply to the photo, read and unread", async () => {
    const sam = await t.db.selectFrom('profiles').select('id').where('username', '=', 'sam').executeTakeFirstOrThrow();
    const chats = await t.db.selectFrom('conversations').select(['partner_id', 'last_message_id']).where('user_id', '=', sam.id).execute();
    expect(chats.length).toBeGreaterThanOrEqual(3);
    expect(chats.every((c) => c.last_message_id !== null)).toBe(true);
    const files = await t.db.selectFrom('message_attachments').selectAll().where('status', '=', 'ready').orderBy('kind').execute();
    expect(files.map((f) => f.kind)).toEqual(['image', 'image', 'image', 'pdf']);
    for (const f of files) expect((await read(f.storage_key!)).length).toBe(Number(f.byte_size));
    const photo = files.find((f) => f.original_filename === 'behind-the-scenes.jpg')!;
    // a pay-per-view message in Sam's thread with Leo, and Ava's priced message to all her subscribers (issue 27)
    const priced = await t.db.selectFrom('messages').select(['price_cents', 'mass_message_id']).where('recipient_id', '=', sam.id).where('price_cents', 'is not', null).execute();
    expect(priced.map((m) => [m.price_cents, m.mass_message_id !== null]).sort()).toEqual([['3000', true], ['4900', false]]);
    expect(await t.db.selectFrom('mass_messages').select(['status', 'price_cents']).execute()).toEqual([{ status: 'sent', price_cents: '3000' }]);
    const withPhoto = await t.db.selectFrom('messages').select('id').where('attachment_id', '=', photo.id).executeTakeFirstOrThrow();
    expect(await t.db.selectFrom('messages').select('id').where('reply_to_id', '=', withPhoto.id).execute()).toHaveLength(1);
    const toSam = await t.db.selectFrom('messages').select('read_at').where('recipient_id', '=', sam.id).execute();
    expect(toSam.some((m) => m.read_at === null) && toSam.some((m) => m.read_at !== null)).toBe(true);
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

  it('seeds the next fresh database from the media made the first time: the same files, the same rows', async () => {
    const next = await createTestDb();
    const nextStorageDir = await mkdtemp(path.join(tmpdir(), 'seed-test-next-'));
    try {
      const nextStorage = new DiskStorage(nextStorageDir);
      expect(await seedDemo({ db: next.db, storage: nextStorage, mediaCache: diskMediaCache(cacheDir) })).toEqual({ created: true });
      type Row = { title: string | null; variant: string; content_type: string; byte_size: string | number; width: number | null; height: number | null; duration_seconds: unknown; storage_key: string };
      const media = (db: typeof t.db) =>
        db
          .selectFrom('media_files')
          .innerJoin('posts', 'posts.id', 'media_files.post_id')
          .select(['posts.title', 'media_files.variant', 'media_files.content_type', 'media_files.byte_size', 'media_files.width', 'media_files.height', 'media_files.duration_seconds', 'media_files.storage_key'])
          .orderBy('posts.title')
          .orderBy('media_files.variant')
          .execute() as Promise<Row[]>;
      const [before, after] = await Promise.all([media(t.db), media(next.db)]);
      const described = (rows: Row[]) => rows.map(({ storage_key: _key, ...rest }) => ({ ...rest, byte_size: Number(rest.byte_size) }));
      expect(described(after)).toEqual(described(before));
      expect(after.length).toBeGreaterThan(50);
      for (const [i, row] of after.entries()) {
        const bytes = await buffer((await nextStorage.get(row.storage_key)).stream);
        expect(bytes.equals(await read(before[i]!.storage_key)), `${row.title} ${row.variant}`).toBe(true);
      }
      const attachments = (db: typeof t.db) => db.selectFrom('message_attachments').select(['original_filename', 'byte_size', 'width', 'height']).orderBy('original_filename').execute();
      expect(await attachments(next.db)).toEqual(await attachments(t.db));
    } finally {
      await next.destroy();
      await rm(nextStorageDir, { recursive: true, force: true });
    }
  });

  it('does nothing the second time', async () => {
    const posts = await t.db.selectFrom('posts').select('id').execute();
    expect(await seedDemo({ db: t.db, storage })).toEqual({ created: false });
    expect(await t.db.selectFrom('posts').select('id').execute()).toHaveLength(posts.length);
  });
});
