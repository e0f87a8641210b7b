import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION } from '../../../common/limits';
import { DATA_EXPORT, DATA_EXPORT_TEXTS, SECURITY_TEXTS } from '../../../common/security';
import { dataExportsRegistry, renderMetrics } from '../../../core/metrics';
import { avatarKey, avatarUrl } from '../../../common/settings';
import { makePost, makeSubscription, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { socketPool } from '../../../tests/helpers/sockets';
import type { TestClient } from '../../../tests/helpers/test-server';
import { expectTrpcError } from '../../../tests/helpers/trpc';
import { waitFor } from '../../../tests/helpers/tus';
import { resetRateLimits } from '../../auth/rate-limit';
import { currentTotpCode } from '../../auth/two-factor';

const app = useFileServer();
const sockets = socketPool();
afterEach(() => sockets.closeAll());
beforeEach(async () => {
  await resetRateLimits(app.deps.redis, app.deps.config.REDIS_PREFIX);
});

async function signIn(user: MadeUser): Promise<TestClient> {
  const client = app.client();
  await client.trpc.auth.signIn.mutate({ email: user.email, password: user.password });
  return client;
}

/** Every table of the app (what other issues add included), each row as JSON text. */
async function snapshot(): Promise<Map<string, Set<string>>> {
  const { rows: tables } = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(app.deps.db);
  const out = new Map<string, Set<string>>();
  for (const { table_name } of tables) {
    const { rows } = await sql<{ row: string }>`select to_jsonb(t)::text as row from ${sql.table(table_name)} t`.execute(app.deps.db);
    out.set(table_name, new Set(rows.map((r) => r.row)));
  }
  return out;
}

/** The columns that point at users.id, read from information_schema: tables added later are covered too. */
async function userForeignKeys(): Promise<{ table_name: string; column_name: string }[]> {
  const { rows } = await sql<{ table_name: string; column_name: string }>`
    select kcu.table_name, kcu.column_name
    from information_schema.table_constraints tc
    join information_schema.key_column_usage kcu
      on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
    join information_schema.constraint_column_usage ccu
      on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
    where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = 'public'
      and ccu.table_name = 'users' and ccu.column_name = 'id'`.execute(app.deps.db);
  return rows;
}

/**
 * A creator with everything: posts with files, an avatar, an export, two-factor, fans (one active
 * and paying), conversations with a file, likes, comments and bookmarks on others' posts, a
 * subscription of their own; and beside them a world of other users that must stay as it was.
 */
async function world() {
  const db = app.deps.db;
  const storage = app.deps.storage;
  const target = await makeUser(db, { isCreator: true });
  const fan = await makeUser(db);
  const other = await makeUser(db, { isCreator: true });
  const bystander = await makeUser(db);

  const posts = [await makePost(db, storage, { creatorId: target.id }), await makePost(db, storage, { creatorId: target.id, isPremium: true, kind: 'video' })];
  const otherPost = await makePost(db, storage, { creatorId: other.id });
  const bystanderPost = await makePost(db, storage, { creatorId: other.id, kind: 'pdf' });

  const fanSub = await makeSubscription(db, { subscriberId: fan.id, creatorId: target.id });
  await makeSubscription(db, { subscriberId: target.id, creatorId: other.id });
  await makeSubscription(db, { subscriberId: bystander.id, creatorId: other.id });
  await db
    .insertInto('payments')
    .values({ user_id: fan.id, tier_id: fanSub.tierId, creator_id: target.id, subscription_id: fanSub.subscriptionId, amount_cents: 50_00, provider: 'builtin', status: 'succeeded' })
    .execute();

  await db.insertInto('post_likes').values([{ post_id: posts[0]!.id, user_id: fan.id }, { post_id: otherPost.id, user_id: target.id }, { post_id: otherPost.id, user_id: bystander.id }]).execute();
  await db.insertInto('bookmarks').values([{ post_id: otherPost.id, user_id: target.id }, { post_id: otherPost.id, user_id: bystander.id }]).execute();
  await db
    .insertInto('comments')
    .values([
      { post_id: posts[0]!.id, user_id: fan.id, comment_text: 'fan on target' },
      { post_id: otherPost.id, user_id: target.id, comment_text: 'target on other' },
      { post_id: otherPost.id, user_id: bystander.id, comment_text: 'bystander on other' },
    ])
    .execute();

  // conversations: target <-> fan (with a file the fan sent), other <-> bystander
  const attachmentKey = `messages/${randomUUID()}/photo.jpg`;
  await storage.put(attachmentKey, Buffer.from('attachment bytes'), 'image/jpeg');
  const attachment = await db
    .insertInto('message_attachments')
    .values({ owner_id: fan.id, kind: 'image', status: 'ready', original_filename: 'photo.jpg', byte_size: 16, storage_key: attachmentKey, content_type: 'image/jpeg' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const message = async (from: string, to: string, content: string, attachmentId: string | null = null) => {
    const m = await db.insertInto('messages').values({ sender_id: from, recipient_id: to, content, attachment_id: attachmentId }).returning('id').executeTakeFirstOrThrow();
    await db
      .insertInto('conversations')
      .values([
        { user_id: from, partner_id: to, last_message_id: m.id },
        { user_id: to, partner_id: from, last_message_id: m.id },
      ])
      .onConflict((oc) => oc.columns(['user_id', 'partner_id']).doUpdateSet({ last_message_id: m.id }))
      .execute();
    return m.id;
  };
  const toTarget = await message(fan.id, target.id, 'hello creator', attachment.id);
  await message(target.id, fan.id, 'hello fan');
  await message(other.id, bystander.id, 'unrelated');
  await db.insertInto('message_reactions').values({ message_id: toTarget, user_id: target.id, emoji: '👍' }).execute();

  // the target's avatar and an export on storage
  const avatarId = randomUUID();
  await storage.put(avatarKey(target.id, avatarId), Buffer.from('avatar'), 'image/webp');
  await db.updateTable('profiles').set({ avatar_url: avatarUrl(target.id, avatarId), bio: 'my bio', categories: ['Art'], is_premium: true }).where('id', '=', target.id).execute();
  await db.insertInto('media_settings').values({ creator_id: target.id, watermark_text: 'mine' }).execute();
  const exportKey = `exports/${target.id}/${randomUUID()}.zip`;
  await storage.put(exportKey, Buffer.from('zip'), 'application/zip');
  await db.insertInto('data_exports').values({ user_id: target.id, status: 'ready', storage_key: exportKey, expires_at: new Date(Date.now() + 86_400_000) }).execute();

  const targetKeys = [...posts.flatMap((p) => Object.values(p.keys)), attachmentKey, avatarKey(target.id, avatarId), exportKey];
  const othersKeys = [...Object.values(otherPost.keys), ...Object.values(bystanderPost.keys)];
  return { target, fan, other, bystander, posts, fanSub, targetKeys, othersKeys };
}

/** The ids whose rows belong to the target: its own, its posts', tiers' and messages'. */
async function targetIds(targetId: string): Promise<string[]> {
  const db = app.deps.db;
  const posts = await db.selectFrom('posts').select('id').where('creator_id', '=', targetId).execute();
  const tiers = await db.selectFrom('subscription_tiers').select('id').where('creator_id', '=', targetId).execute();
  const messages = await db.selectFrom('messages').select(['id', 'attachment_id']).where((eb) => eb.or([eb('sender_id', '=', targetId), eb('recipient_id', '=', targetId)])).execute();
  const subs = await db.selectFrom('subscriptions').select('id').where((eb) => eb.or([eb('subscriber_id', '=', targetId), eb('tier_id', 'in', tiers.length ? tiers.map((t) => t.id) : [randomUUID()])])).execute();
  return [targetId, ...posts.map((r) => r.id), ...tiers.map((r) => r.id), ...subs.map((r) => r.id), ...messages.flatMap((m) => [m.id, m.attachment_id].filter((x): x is string => !!x))];
}

/** Rows that disappeared or appeared between two snapshots, by table. */
function diff(before: Map<string, Set<string>>, after: Map<string, Set<string>>) {
  const removed: [string, string][] = [];
  const added: [string, string][] = [];
  for (const [table, rows] of before) for (const row of rows) if (!after.get(table)?.has(row)) removed.push([table, row]);
  for (const [table, rows] of after) for (const row of rows) if (!before.get(table)?.has(row)) added.push([table, row]);
  return { removed, added };
}

describe('hide account', () => {
  it('hides and shows the profile; another user gets not found while hidden', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const viewer = await makeUser(app.deps.db);
    const client = await signIn(user);
    const viewerClient = await signIn(viewer);
    expect((await client.trpc.account.management.query()).hidden).toBe(false);
    expect(await client.trpc.account.setHidden.mutate({ hidden: true })).toEqual({ hidden: true });
    expect((await client.trpc.account.management.query()).hidden).toBe(true);
    await expectTrpcError(viewerClient.trpc.profiles.byUsername.query({ username: user.username }), 'NOT_FOUND');
    await client.trpc.account.setHidden.mutate({ hidden: false });
    expect(await viewerClient.trpc.profiles.byUsername.query({ username: user.username })).toBeTruthy();
    // the viewer's own settings were not touched by any of it
    expect((await viewerClient.trpc.account.management.query()).hidden).toBe(false);
  });

  it('showing returns to the visibility chosen before hiding (issue 23 item 6)', async () => {
    for (const visibility of ['private', 'friends', 'public'] as const) {
      const user = await makeUser(app.deps.db, { isCreator: true });
      const client = await signIn(user);
      const stranger = await signIn(await makeUser(app.deps.db));
      await client.trpc.settings.savePrivacy.mutate({ profileVisibility: visibility, showOnlineStatus: true, allowFriendRequests: true });
      await client.trpc.account.setHidden.mutate({ hidden: true });
      // hiding twice keeps what was there before the first
      await client.trpc.account.setHidden.mutate({ hidden: true });
      expect((await client.trpc.settings.privacy.query()).profileVisibility).toBe('hidden');
      await client.trpc.account.setHidden.mutate({ hidden: false });
      expect((await client.trpc.settings.privacy.query()).profileVisibility, visibility).toBe(visibility);
      expect((await client.trpc.account.management.query()).hidden).toBe(false);
      // a stranger sees the profile only if it was public
      const seen = await stranger.trpc.profiles.byUsername.query({ username: user.username }).then(
        () => true,
        () => false,
      );
      expect(seen, visibility).toBe(visibility === 'public');
    }
  });

  it('a visibility chosen while hidden is the one showing returns to; showing an account not hidden changes nothing', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const client = await signIn(user);
    await client.trpc.account.setHidden.mutate({ hidden: false });
    expect((await client.trpc.settings.privacy.query()).profileVisibility).toBe('private');
    await client.trpc.account.setHidden.mutate({ hidden: true });
    await client.trpc.settings.savePrivacy.mutate({ profileVisibility: 'friends', showOnlineStatus: true, allowFriendRequests: true });
    expect((await client.trpc.settings.privacy.query()).profileVisibility).toBe('hidden');
    await client.trpc.account.setHidden.mutate({ hidden: false });
    expect((await client.trpc.settings.privacy.query()).profileVisibility).toBe('friends');
  });
});

describe('delete all data', () => {
  it('asks for the password (and a code with two-factor on) before deleting anything', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: user.id });
    const client = await signIn(user);
    await expectTrpcError(client.trpc.account.deleteAllData.mutate({ password: 'wrong-password' }), 'BAD_REQUEST', SECURITY_TEXTS.wrongPassword);
    const started = await client.trpc.security.startTwoFactor.mutate();
    const key = decodeBase32IgnorePadding(started.secret);
    await client.trpc.security.confirmTwoFactor.mutate({ code: currentTotpCode(key) });
    await expectTrpcError(client.trpc.account.deleteAllData.mutate({ password: user.password }), 'BAD_REQUEST', SECURITY_TEXTS.codeRequired);
    await expectTrpcError(client.trpc.account.deleteAccount.mutate({ password: user.password, code: '000000' }), 'BAD_REQUEST', SECURITY_TEXTS.invalidCode);
    expect(await app.deps.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeTruthy();
    expect(await client.trpc.auth.me.query()).toMatchObject({ id: user.id });
    await client.trpc.account.deleteAllData.mutate({ password: user.password, code: currentTotpCode(key, Date.now() + 30_000) });
    expect(await app.deps.db.selectFrom('posts').select('id').where('id', '=', post.id).executeTakeFirst()).toBeUndefined();
  });

  it("removes the creator's data on both sides, blanks the profile, keeps the account, and changes nothing of anyone else", async () => {
    const w = await world();
    const client = await signIn(w.target);
    const ids = await targetIds(w.target.id);
    // the sign-ins' security mail sent (its outbox rows done) before the picture is taken
    await app.drain('mail');
    const before = await snapshot();

    expect(await client.trpc.account.deleteAllData.mutate({ password: w.target.password })).toEqual({ ok: true });
    await app.drain('maintenance');

    const { removed, added } = diff(before, await snapshot());
    const mentionsTarget = (row: string) => ids.some((id) => row.includes(id));
    // every removed row was the target's or hung on the target's posts, tiers, subscriptions or messages
    expect(removed.filter(([, row]) => !mentionsTarget(row))).toEqual([]);
    // what changed in place: the target's own profile, and the fan's payment, detached from the deleted tier;
    // what is new: the fan's refund of the unused days (docs/payments.md); the outbox gains the files
    // job's and the refund's rows, done (the relay would have queued them had Redis lost them)
    const outboxRows = added.filter(([table]) => table === 'outbox').map(([, row]) => JSON.parse(row) as { name: string; done_at: string | null });
    expect(outboxRows.map((r) => r.name).sort()).toEqual(['delete-user-files', 'provider-refund']);
    expect(outboxRows.every((r) => r.done_at !== null)).toBe(true);
    const changed = added.filter(([table, row]) => !(table === 'sessions' && row.includes(w.target.id)) && table !== 'outbox');
    // (and the refund's reversal in the earnings ledger, and the refund decided with its amount, docs/payments.md)
    // (the ledger's journals of the refund, and the creator's available account if the refund opened it)
    expect(changed.filter(([t]) => !t.startsWith('journal_') && t !== 'ledger_accounts').map(([table]) => table).sort()).toEqual(['payments', 'payments', 'profiles', 'refund_requests']);
    // the refund's journals: decided (the creator's share off their balance) and settled by the provider
    expect(changed.filter(([t]) => t === 'journal_entries').map(([, row]) => (JSON.parse(row) as { kind: string }).kind).sort()).toEqual(['refund_decided', 'refund_settled']);
    type Row = { user_id: string; tier_id: string | null; amount_cents: number; kind: string };
    const payments = changed.filter(([t]) => t === 'payments').map(([, row]) => JSON.parse(row) as Row);
    expect(payments.find((p) => p.kind === 'charge')).toMatchObject({ user_id: w.fan.id, tier_id: null });
    expect(payments.find((p) => p.kind === 'refund')).toMatchObject({ user_id: w.fan.id, tier_id: null, amount_cents: expect.any(Number) });
    expect(payments.find((p) => p.kind === 'refund')!.amount_cents).toBeLessThan(0);

    const profile = await app.deps.db.selectFrom('profiles').selectAll().where('id', '=', w.target.id).executeTakeFirstOrThrow();
    expect(profile).toMatchObject({ bio: null, avatar_url: null, is_premium: false, categories: [], custom_links: [], social_links: {} });
    expect(profile.username).toBe(w.target.username);
    for (const table of ['posts', 'post_likes', 'bookmarks', 'comments', 'message_reactions', 'subscribers', 'media_settings'] as const) {
      expect(removed.some(([t]) => t === table), table).toBe(true);
    }
    // the fan lost access to the target's premium post with the subscription; the account itself stays
    expect(await client.trpc.auth.me.query()).toMatchObject({ id: w.target.id });
    for (const key of w.targetKeys) expect(await app.deps.storage.exists(key), key).toBe(false);
    for (const key of w.othersKeys) expect(await app.deps.storage.exists(key), key).toBe(true);
    expect(await app.deps.db.selectFrom('storage_deletions').select('storage_key').execute()).toEqual([]);
  });
});

describe('delete account', () => {
  it('leaves no row referring to the user in any table and no file, signs out every session live, and touches nobody else', async () => {
    const w = await world();
    const client = await signIn(w.target);
    const elsewhere = await signIn(w.target);
    const socket = await sockets.open(app, w.target);
    const started = await client.trpc.security.startTwoFactor.mutate();
    await client.trpc.security.confirmTwoFactor.mutate({ code: currentTotpCode(decodeBase32IgnorePadding(started.secret)) });
    const fanClient = await signIn(w.fan);
    const ids = await targetIds(w.target.id);
    // the sign-ins' security mail sent (its outbox rows done) before the picture is taken
    await app.drain('mail');
    const before = await snapshot();

    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    await expectTrpcError(client.trpc.account.deleteAccount.mutate({ password: w.target.password }), 'BAD_REQUEST', SECURITY_TEXTS.codeRequired);
    const code = currentTotpCode(decodeBase32IgnorePadding(started.secret), Date.now() + 30_000);
    expect(await client.trpc.account.deleteAccount.mutate({ password: w.target.password, code })).toEqual({ ok: true });
    expect(client.lastSetCookie().some((c) => c.startsWith(`${SESSION.cookieName}=;`))).toBe(true);
    await disconnected;
    await app.drain('maintenance');

    // no column that points at users holds the id
    const fks = await userForeignKeys();
    expect(fks.length).toBeGreaterThan(20);
    for (const { table_name, column_name } of fks) {
      const { rows } = await sql<{ n: string }>`select count(*) as n from ${sql.table(table_name)} where ${sql.ref(column_name)} = ${w.target.id}`.execute(app.deps.db);
      expect(Number(rows[0]!.n), `${table_name}.${column_name}`).toBe(0);
    }
    // and no row anywhere mentions it (text columns, JSON, storage_deletions' batch...)
    const after = await snapshot();
    for (const [table, rows] of after) for (const row of rows) expect(row.includes(w.target.id), `${table}: ${row}`).toBe(false);

    const { removed, added } = diff(before, after);
    expect(removed.filter(([, row]) => !ids.some((id) => row.includes(id)))).toEqual([]);
    // the fan's payment stays in their ledger, detached, and the unused days come back to them as a
    // refund; the fan's session may have been touched by their own request; the outbox holds the
    // files job's and the refund's rows (naming nobody)
    // files job's and the refund's rows (naming nobody); the refund reverses its share in the ledger,
    // and was decided with its amount (refund_requests, naming nobody)
    expect(added.map(([t]) => t).filter((t) => t !== 'sessions' && t !== 'outbox' && !t.startsWith('journal_') && t !== 'ledger_accounts').sort()).toEqual(['payments', 'payments', 'refund_requests']);
    expect(added.filter(([t]) => t === 'journal_entries').map(([, row]) => (JSON.parse(row) as { kind: string }).kind).sort()).toEqual(['refund_decided', 'refund_settled']);

    for (const key of w.targetKeys) expect(await app.deps.storage.exists(key), key).toBe(false);
    for (const key of w.othersKeys) expect(await app.deps.storage.exists(key), key).toBe(true);

    expect(await client.trpc.auth.me.query()).toBeNull();
    expect(await elsewhere.trpc.auth.me.query()).toBeNull();
    await expectTrpcError(app.client().trpc.auth.signIn.mutate({ email: w.target.email, password: w.target.password }), 'UNAUTHORIZED');
    expect(await fanClient.trpc.auth.me.query()).toMatchObject({ id: w.fan.id });
  });

  it("cannot delete another user's account or data: the caller is always the session's user", async () => {
    const [ann, bob] = [await makeUser(app.deps.db), await makeUser(app.deps.db)];
    const annClient = await signIn(ann);
    // Bob's password in Ann's session is only a wrong password for Ann
    await expectTrpcError(annClient.trpc.account.deleteAccount.mutate({ password: bob.password + 'x' }), 'BAD_REQUEST', SECURITY_TEXTS.wrongPassword);
    const visitor = app.client();
    await expectTrpcError(visitor.trpc.account.deleteAccount.mutate({ password: bob.password }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.trpc.account.setHidden.mutate({ hidden: true }), 'UNAUTHORIZED');
    expect(await app.deps.db.selectFrom('users').select('id').where('id', 'in', [ann.id, bob.id]).execute()).toHaveLength(2);
  });
});

describe('download my data', () => {
  it('builds a zip with the data, a README saying what the media are and the posts’ media, mails a link, and serves it to its owner only', async () => {
    const user = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: user.id, text: 'exported words' });
    const other = await makeUser(app.deps.db);
    const client = await signIn(user);
    const requested = await client.trpc.account.requestExport.mutate();
    expect(requested.status).toBe('pending');
    await expectTrpcError(client.trpc.account.requestExport.mutate(), 'TOO_MANY_REQUESTS', SECURITY_TEXTS.exportTooSoon);
    await app.drain('exports', 30_000);
    const [ready] = await client.trpc.account.exports.query();
    expect(ready).toMatchObject({ id: requested.id, status: 'ready' });

    const mail = (await app.outbox()).find((m) => m.to === user.email && m.subject.includes('ready to download'));
    expect(mail?.link).toBe(`${app.url}${ready!.downloadUrl}`);
    // the mail says what the screen says: the media as published, the uploaded files not kept (issue 47)
    expect(mail?.text).toContain(DATA_EXPORT_TEXTS.mail);
    expect(mail?.text).not.toMatch(/original files/);
    expect(DATA_EXPORT_TEXTS.description).toMatch(/the files as uploaded are not kept/);
    expect(DATA_EXPORT_TEXTS.mail).toMatch(/the files as uploaded are not kept/);

    const response = await client.fetch(ready!.downloadUrl!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="my-data-/);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    // entry names are stored uncompressed in the zip's directory
    for (const name of ['README.txt', 'profile.json', 'posts.json', 'comments.json', 'messages.json', 'subscriptions.json', 'payments.json', `media/${post.id}/original.jpg`]) {
      expect(zip.includes(Buffer.from(name)), name).toBe(true);
    }

    const otherClient = await signIn(other);
    expect((await otherClient.fetch(ready!.downloadUrl!)).status).toBe(404);
    expect(await otherClient.trpc.account.exports.query()).toEqual([]);
    expect((await app.client().fetch(ready!.downloadUrl!)).status).toBe(401);

    // past its time it is not served, and maintenance removes the file and the row
    await app.deps.db.updateTable('data_exports').set({ expires_at: new Date(Date.now() - 1000) }).where('id', '=', ready!.id).execute();
    expect((await client.fetch(ready!.downloadUrl!)).status).toBe(404);
    const { storage_key } = await app.deps.db.selectFrom('data_exports').select('storage_key').where('id', '=', ready!.id).executeTakeFirstOrThrow();
    await app.deps.queues.add('maintenance', 'expire-data-exports', {});
    await waitFor(async () => !(await app.deps.db.selectFrom('data_exports').select('id').where('id', '=', ready!.id).executeTakeFirst()), 15_000, 'export expired');
    expect(await app.deps.storage.exists(storage_key!)).toBe(false);
  });

  it('a new export replaces the previous one: one archive per user, the old file deleted', async () => {
    const user = await makeUser(app.deps.db);
    const client = await signIn(user);
    const first = await client.trpc.account.requestExport.mutate();
    await app.drain('exports', 30_000);
    const { storage_key: firstKey } = await app.deps.db.selectFrom('data_exports').select('storage_key').where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(await app.deps.storage.exists(firstKey!)).toBe(true);

    // past the cooldown, asked again
    await sql`update data_exports set created_at = ${new Date(Date.now() - DATA_EXPORT.cooldownMs - 1000)} where id = ${first.id}`.execute(app.deps.db);
    const second = await client.trpc.account.requestExport.mutate();
    await app.drain('exports', 30_000);
    await app.drain('maintenance');
    expect(await client.trpc.account.exports.query()).toEqual([expect.objectContaining({ id: second.id, status: 'ready' })]);
    expect(await app.deps.storage.exists(firstKey!)).toBe(false);
    expect(await app.deps.db.selectFrom('data_exports').select('id').where('user_id', '=', user.id).execute()).toEqual([{ id: second.id }]);
  });

  it('an export whose worker died at every run fails with its reason on the screen; another may be asked at once', async () => {
    const user = await makeUser(app.deps.db);
    const client = await signIn(user);
    // killed mid-build DATA_EXPORT.maxRuns times (each start is counted before the build)
    const row = await app.deps.db
      .insertInto('data_exports')
      .values({ user_id: user.id, runs: DATA_EXPORT.maxRuns, expires_at: new Date(Date.now() + DATA_EXPORT.lifetimeMs) })
      .returning('id')
      .executeTakeFirstOrThrow();
    await app.deps.queues.add('exports', 'build-data-export', { exportId: row.id }, { jobId: `data-export-${row.id}` });
    await app.drain('exports', 30_000);
    expect(await client.trpc.account.exports.query()).toEqual([
      expect.objectContaining({ id: row.id, status: 'failed', failureReason: DATA_EXPORT_TEXTS.failed, downloadUrl: null }),
    ]);
    // operators see it
    const { body } = await renderMetrics(dataExportsRegistry(app.deps.db));
    expect(body).toMatch(/data_exports\{status="failed"\} [1-9]/);

    // the failed one does not hold the user back, and is replaced
    const again = await client.trpc.account.requestExport.mutate();
    await app.drain('exports', 30_000);
    expect(await client.trpc.account.exports.query()).toEqual([expect.objectContaining({ id: again.id, status: 'ready', failureReason: null })]);
  });
});
