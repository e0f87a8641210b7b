import { createHash, createHmac, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '../../core/clock';
import { builtinProvider } from '../../core/payments/builtin';
import { billingMaintenance } from '../../worker/jobs/billing';
import { makePost, makeSubscription, makeUser, type MadeUser } from '../helpers/factories';
import { join, record, socketPool } from '../helpers/sockets';
import { startTestServer, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';

// Issue 46 item 6: the surfaces not tried before. Socket rooms after each permission change (two
// server copies sharing a database and a Redis prefix), the operators' doors behind a proxy that
// adds forwarding headers (TRUST_PROXY on and off), and the presigned S3 URLs of the media route.
const METRICS_TOKEN = 'attack-surface-metrics-token-0123456789abcdef';
const TTL_S = 2;
let a: TestServer; // TRUST_PROXY=1 (behind one proxy), S3 storage
let b: TestServer; // a second copy of a: same database, Redis prefix and bucket
let direct: TestServer; // TRUST_PROXY=0 (no proxy trusted)
const sockets = socketPool();

beforeAll(async () => {
  a = await startTestServer({ storage: 's3', env: { METRICS_TOKEN, TRUST_PROXY: '1', MEDIA_SIGNED_URL_TTL_S: String(TTL_S) } });
  b = await startTestServer({ shareWith: a });
  direct = await startTestServer({ workerQueues: [], env: { METRICS_TOKEN, TRUST_PROXY: '0' } });
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await direct?.close();
});
afterEach(() => sockets.closeAll());

async function makeAdmin(db: TestServer['deps']['db']): Promise<MadeUser> {
  const admin = await makeUser(db);
  await db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
  return admin;
}

describe('socket rooms follow every permission change (issue 46 §6)', () => {
  it('a subscription that ends takes the fan out of a friends-only creator’s post and presence rooms, on every copy', async () => {
    const creator = await makeUser(a.deps.db, { isCreator: true, visibility: 'friends' });
    const fan = await makeUser(a.deps.db);
    const post = await makePost(a.deps.db, null, { creatorId: creator.id, kind: null });
    const { subscriptionId } = await makeSubscription(a.deps.db, { subscriberId: fan.id, creatorId: creator.id, periodEnd: new Date(Date.now() + 60_000) });
    await a.deps.db.updateTable('subscriptions').set({ cancel_at_period_end: true }).where('id', '=', subscriptionId).execute();

    const fanSocket = await sockets.open(b, fan);
    expect(await join(fanSocket, [post.id], 'post')).toEqual([post.id]);
    expect(await join(fanSocket, [creator.id], 'presence')).toEqual([creator.id]);
    const comments = record(fanSocket, 'post:comment');
    const revoked = record(fanSocket, 'rooms:revoked');
    const asCreator = await clientAs(a, creator.id);
    const before = await asCreator.trpc.comments.add.mutate({ postId: post.id, text: 'subscribers only' });
    await comments.next((e) => e.comment.id === before.comment.id);

    // the cancelled subscription reaches its end: the worker's billing run expires it
    const clock = fixedClock(new Date(Date.now() + 2 * 60_000));
    expect(await billingMaintenance({ ...a.deps, clock, payments: builtinProvider } as never)).toMatchObject({ expired: 1 });
    expect(await revoked.next((e) => e.kind === 'post')).toEqual({ kind: 'post', ids: [post.id] });
    expect(await revoked.next((e) => e.kind === 'presence')).toEqual({ kind: 'presence', ids: [creator.id] });

    const creatorSocket = await sockets.open(b, creator);
    expect(await join(creatorSocket, [post.id], 'post')).toEqual([post.id]);
    const creatorHears = record(creatorSocket, 'post:comment');
    const after = await asCreator.trpc.comments.add.mutate({ postId: post.id, text: 'after the end' });
    await creatorHears.next((e) => e.comment.id === after.comment.id);
    expect(comments.seen.map((e) => e.comment.text)).toEqual(['subscribers only']);
    expect(await join(fanSocket, [post.id], 'post')).toEqual([]);
  });

  it('a post made premium keeps its room (it stays visible) and the room hears ids only; a deleted post’s room cannot be joined again', async () => {
    const creator = await makeUser(a.deps.db, { isCreator: true });
    const fan = await makeUser(a.deps.db);
    const post = await makePost(a.deps.db, a.deps.storage, { creatorId: creator.id, kind: 'image' });
    const fanSocket = await sockets.open(b, fan);
    expect(await join(fanSocket, [post.id], 'post')).toEqual([post.id]);
    const heard: { event: string; payload: unknown }[] = [];
    fanSocket.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    const asCreator = await clientAs(a, creator.id);

    await asCreator.trpc.posts.edit.mutate({ postId: post.id, title: 'Now premium', text: '', hashtags: '', isPremium: true, unlock: null });
    await expect.poll(() => heard.find((h) => h.event === 'post:updated')?.payload).toEqual({ postId: post.id });
    // what the room carries of a premium post: counts and ids, never its media
    await asCreator.trpc.posts.like.mutate({ postId: post.id });
    await expect.poll(() => heard.some((h) => h.event === 'post:likes')).toBe(true);
    expect(JSON.stringify(heard)).not.toMatch(/\/media\//);
    expect((await (await clientAs(a, fan.id)).fetch(`/media/${post.id}/original`, { redirect: 'manual' })).status).toBe(403);

    await asCreator.trpc.posts.delete.mutate({ postId: post.id });
    await expect.poll(() => heard.find((h) => h.event === 'post:deleted')?.payload).toEqual({ postId: post.id });
    expect(await join(fanSocket, [post.id], 'post')).toEqual([]);
  });

  it('a signed-out session’s socket on another copy is told and disconnected; nothing of the user room reaches it after', async () => {
    const [user, friend] = await Promise.all([makeUser(a.deps.db), makeUser(a.deps.db)]);
    const asUser = await clientAs(a, user.id);
    const socket = await sockets.open(b, user);
    const revokedSession = new Promise<void>((resolve) => socket.once('session:revoked', () => resolve()));
    const disconnected = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    const news = record(socket, 'message:new');
    await asUser.trpc.auth.signOut.mutate({ scope: 'global' });
    await revokedSession;
    await disconnected;
    await (await clientAs(a, friend.id)).trpc.messages.send.mutate({ username: user.username, content: 'after sign-out', clientId: randomUUID() });
    await sleep(300);
    expect(news.seen).toEqual([]);
    // a user room is one's own only: another user's cannot be joined
    const other = await sockets.open(b, friend);
    expect(await join(other, [user.id], 'user')).toEqual([]);
    expect(await join(other, [randomUUID()], 'conversation')).toEqual([]);
  });

  it('an admin role revoked ends the queue dashboard and /metrics at once on every copy (there is no admin socket room)', async () => {
    const admin = await makeAdmin(a.deps.db);
    const [onA, onB] = [await clientAs(a, admin.id), await clientAs(b, admin.id)];
    for (const client of [onA, onB]) {
      expect((await client.fetch('/admin/queues/api/queues')).status).toBe(200);
      expect((await client.fetch('/metrics')).status).toBe(200);
    }
    // what `npm run admin -- revoke` does: the row, then every copy forgets the user's sessions
    await a.deps.db.updateTable('users').set({ role: 'user' }).where('id', '=', admin.id).execute();
    await a.deps.realtime.forgetSessions({ userIds: [admin.id] });
    for (const client of [onA, onB]) {
      await expect.poll(async () => (await client.fetch('/admin/queues/api/queues')).status, { timeout: 2_000 }).toBe(403);
      expect((await client.fetch('/metrics')).status).toBe(403);
    }
  });
});

describe('the operators’ doors behind a proxy that adds forwarding headers (issue 46 §6)', () => {
  const FORWARDED: Record<string, string>[] = [
    { 'x-forwarded-for': '127.0.0.1' },
    { 'x-forwarded-for': '127.0.0.1, 10.0.0.1' },
    { 'x-forwarded-for': '::1', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'localhost' },
    { forwarded: 'for=127.0.0.1;proto=https;host=localhost' },
    { 'x-real-ip': '127.0.0.1', 'x-client-ip': '127.0.0.1', 'true-client-ip': '127.0.0.1' },
  ];

  it('no forwarding header grants /admin/queues or /metrics, with TRUST_PROXY on or off, to a visitor or a user', async () => {
    for (const server of [a, direct]) {
      const user = await makeUser(server.deps.db);
      const asUser = await clientAs(server, user.id);
      for (const headers of FORWARDED) {
        for (const path of ['/admin/queues', '/admin/queues/api/queues']) {
          expect((await server.client().fetch(path, { headers })).status).toBe(401);
          expect((await asUser.fetch(path, { headers })).status).toBe(403);
        }
        expect((await server.client().fetch('/metrics', { headers })).status).toBe(401);
        expect((await asUser.fetch('/metrics', { headers })).status).toBe(403);
        expect((await server.client().fetch('/metrics', { headers: { ...headers, authorization: 'Bearer not-the-token' } })).status).toBe(401);
      }
      // what does open them: the token, or an admin's session
      expect((await server.client().fetch('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(200);
      const admin = await makeAdmin(server.deps.db);
      expect((await (await clientAs(server, admin.id)).fetch('/admin/queues/api/queues', { headers: FORWARDED[0] })).status).toBe(200);
    }
  });
});

/** RFC 3986 encoding, as SigV4's canonical query string wants it. */
const rfc3986 = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** Whether a presigned GET URL's SigV4 signature (X-Amz-Signature) signs this very URL with `secret`. */
function sigV4Valid(url: URL, secret: string): boolean {
  const q = url.searchParams;
  const signature = q.get('X-Amz-Signature');
  const date = q.get('X-Amz-Date')!;
  const [, day, region, service] = q.get('X-Amz-Credential')!.split('/') as [string, string, string, string];
  const query = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)] as const)
    .sort(([x, xv], [y, yv]) => (x === y ? (xv < yv ? -1 : 1) : x < y ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const signed = q.get('X-Amz-SignedHeaders')!.split(';');
  const headers = signed.map((h) => `${h}:${h === 'host' ? url.host : ''}\n`).join('');
  const canonical = ['GET', url.pathname, query, headers, signed.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', date, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
  return hmac(key, toSign).toString('hex') === signature;
}

describe('presigned S3 URLs (issue 46 §6)', () => {
  it('live MEDIA_SIGNED_URL_TTL_S, open one object only, list nothing, and stop after their lifetime', async () => {
    const creator = await makeUser(a.deps.db, { isCreator: true });
    const subscriber = await makeUser(a.deps.db);
    await makeSubscription(a.deps.db, { subscriberId: subscriber.id, creatorId: creator.id });
    const [one, two] = await Promise.all([
      makePost(a.deps.db, a.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' }),
      makePost(a.deps.db, a.deps.storage, { creatorId: creator.id, isPremium: true, kind: 'image' }),
    ]);
    const asSubscriber = await clientAs(a, subscriber.id);
    const located = async (postId: string) => {
      const res = await asSubscriber.fetch(`/media/${postId}/original`, { redirect: 'manual' });
      expect(res.status).toBe(302);
      return new URL(res.headers.get('location')!);
    };
    const url = await located(one.id);
    const other = await located(two.id);
    expect(Number(url.searchParams.get('X-Amz-Expires'))).toBe(TTL_S);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
    // the credential names the access key id and the day's scope, nothing more (the signature is an HMAC)
    expect(url.searchParams.get('X-Amz-Credential')).toMatch(new RegExp(`^${a.deps.config.S3_ACCESS_KEY}/\\d{8}/[^/]+/s3/aws4_request$`));
    expect((await fetch(url)).status).toBe(200);

    const [, bucket] = url.pathname.split('/');
    const secret = a.deps.config.S3_SECRET_KEY!;
    // the test store (s3rver) checks a presigned URL's lifetime but not its SigV4 signature, so the
    // signature is checked here as S3 and MinIO check it: it must sign the URL as given, and no
    // other object, the bucket, a listing, a prefix or a longer lifetime with the same signature
    expect(sigV4Valid(url, secret)).toBe(true);
    expect(sigV4Valid(other, secret)).toBe(true);
    const tampered = (pathname: string, extra: Record<string, string> = {}) => {
      const t = new URL(url);
      t.pathname = pathname;
      for (const [k, v] of Object.entries(extra)) t.searchParams.set(k, v);
      return t;
    };
    expect(sigV4Valid(tampered(other.pathname), secret)).toBe(false);
    expect(sigV4Valid(tampered(`/${bucket}`), secret)).toBe(false);
    expect(sigV4Valid(tampered(`/${bucket}/`, { 'list-type': '2' }), secret)).toBe(false);
    expect(sigV4Valid(tampered(url.pathname, { 'list-type': '2' }), secret)).toBe(false);
    expect(sigV4Valid(tampered(url.pathname.replace(/[^/]+$/, '')), secret)).toBe(false);
    expect(sigV4Valid(tampered(url.pathname, { 'X-Amz-Expires': '604800' }), secret)).toBe(false);
    // nothing but a whole object key can be signed
    for (const key of ['', 'posts/', `posts/${one.id}/`, `posts/../${two.id}`, '/']) {
      await expect(a.deps.storage.signedUrl!(key, { expiresInS: TTL_S })).rejects.toThrow();
    }
    // the lifetime is bounded by the settings' schema (at most 600 s), and the store enforces it
    await sleep((TTL_S + 1.5) * 1000);
    expect((await fetch(url)).status).toBe(403);
  });
});
