import { Redis } from 'ioredis';
import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import { type ClientToServerEvents, type ServerToClientEvents } from '../common/socket-events';
import { emitPostPublished } from '../domain/announcements/post-published';
import { createRealtime } from '../core/realtime/emitter';
import { makePost, makeSessionCookie, makeUser } from '../tests/helpers/factories';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, percentile, type Figure } from './lib/figures';
import { startAppProcess, type BenchProcess } from './lib/processes';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** the heap a copy still uses after a full collection (bench/lib/heap-probe.ts): what the sockets hold, not garbage */
const heapOf = async (copy: BenchProcess) => (await copy.heapAfterGc()).heapUsed;
const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Listens for `event` on every socket (start it before the action): resolves with the moment the
 * last one heard it, or fails after 10 s saying how many did.
 */
function lastToHear(sockets: ClientSocket[], event: 'post:likes' | 'post:published', what: string): Promise<number> {
  let count = 0;
  const heard = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`only ${count} of ${sockets.length} ${what}`)), 10_000);
    for (const s of sockets)
      s.once(event, () => {
        if (++count < sockets.length) return;
        clearTimeout(timer);
        resolve(performance.now());
      });
  });
  // awaited by the caller after its action; a failed action must not leave it unhandled
  heard.catch(() => undefined);
  return heard;
}

/**
 * Realtime fan-out across two server copies sharing Redis (as behind a load balancer): 1,000
 * visitor sockets, alternately on either copy, all watching one public post and every one in the
 * `feed` room.
 *   - a like (posts.like / posts.unlike, alternately, by a fan over HTTP on copy A) -> `post:likes`
 *     on every socket: the time from the like's response to the event on the LAST socket;
 *   - a new post announced as the worker announces it (the Redis emitter, from this process) ->
 *     `post:published` on every open feed: the time from the emit to the last socket;
 *   - memory per idle socket: both copies' V8 heap (and RSS) before and after the sockets connect,
 *     after a warm-up round of connections.
 * No floor exists for fan-out; the target (p99 under 100 ms) stands in its place.
 */
export async function benchRealtime(ctx: BenchContext): Promise<Array<Figure | string>> {
  const sockets = ctx.quick ? 50 : 1_000;
  const rounds = ctx.quick ? 5 : 50;
  const bench = await createBenchDb();
  const prefix = `bench-rt-${process.pid}`;
  const copies: BenchProcess[] = [];
  const open: ClientSocket[] = [];
  const redis = new Redis({ maxRetriesPerRequest: 1 });
  const out: Array<Figure | string> = [];
  try {
    const creator = await makeUser(bench.db, { isCreator: true });
    const fan = await makeUser(bench.db);
    const post = await makePost(bench.db, null, { creatorId: creator.id });
    const { cookie } = await makeSessionCookie(bench.db, fan.id);
    for (let i = 0; i < 2; i++) copies.push(await startAppProcess(bench.url, { REDIS_PREFIX: prefix }, { heapProbe: true }));

    // connects `count` sockets in batches, alternately to each copy, each joining the post's room (acknowledged)
    const connectAll = async (count: number) => {
      for (let i = 0; i < count; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, count - i) }, async (_, k) => {
            const copy = copies[(i + k) % 2]!;
            const socket: ClientSocket = connect(copy.url, { transports: ['websocket'], extraHeaders: { origin: copy.url }, reconnection: false });
            open.push(socket);
            await new Promise<void>((resolve, reject) => {
              socket.once('connect', () => resolve());
              socket.once('connect_error', reject);
            });
            const ack = await new Promise<{ ids: string[] }>((resolve) => socket.emit('room:join', { kind: 'post', ids: [post.id] }, resolve));
            if (!ack.ids.includes(post.id)) throw new Error('a socket could not join the post room');
          }),
        );
      }
    };
    // a first round of connections and disconnections warms both copies up (code compiled,
    // buffers allocated), so the memory measured next is the sockets'
    await connectAll(Math.min(100, sockets));
    for (const s of open.splice(0)) s.disconnect();
    await sleep(1500);
    const heapBefore = await Promise.all(copies.map(heapOf));
    const rssBefore = copies.map((c) => c.rss());
    await connectAll(sockets);
    await sleep(2000);
    const heapAfter = await Promise.all(copies.map(heapOf));
    const rssAfter = copies.map((c) => c.rss());
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const perSocket = (sum(heapAfter) - sum(heapBefore)) / sockets;
    const rssPerSocket = (sum(rssAfter) - sum(rssBefore)) / sockets;
    out.push(`realtime: ${sockets} sockets over 2 server copies sharing Redis, ${rounds} events of each kind`);

    // likes: alternately like and unlike, one at a time, each waited for on every socket
    const likeGaps: number[] = [];
    const likeFromSend: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const heard = lastToHear(open, 'post:likes', 'sockets heard the like');
      const sent = performance.now();
      const res = await fetch(`${copies[0]!.url}/trpc/posts.${r % 2 === 0 ? 'like' : 'unlike'}`, {
        method: 'POST',
        headers: { cookie, origin: copies[0]!.url, 'content-type': 'application/json' },
        body: JSON.stringify({ json: { postId: post.id } }),
      });
      await res.arrayBuffer();
      const answered = performance.now();
      if (!res.ok) throw new Error(`like: ${res.status}`);
      const last = await heard;
      likeGaps.push(Math.max(0, last - answered));
      likeFromSend.push(last - sent);
      await sleep(20);
    }

    // new posts: the worker's announcement, through the Redis emitter, to every open feed
    const realtime = createRealtime(redis, prefix);
    const publishGaps: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const heard = lastToHear(open, 'post:published', 'feeds heard the post');
      const sent = performance.now();
      emitPostPublished(realtime, { postId: post.id, creatorId: creator.id, optimisticId: null }, { toFeed: true });
      publishGaps.push((await heard) - sent);
      await sleep(20);
    }

    const sortedLike = [...likeGaps].sort((a, b) => a - b);
    const sortedSend = [...likeFromSend].sort((a, b) => a - b);
    const sortedPub = [...publishGaps].sort((a, b) => a - b);
    out.push(
      figure(`like -> post:likes on the last of ${sockets} sockets`, percentile(sortedLike, 0.5), null, 'ms', {
        p50: round1(percentile(sortedLike, 0.5)),
        p99: round1(percentile(sortedLike, 0.99)),
        note: `from the like's response; target p99 < 100 ms. From the request's start: p50 ${round1(percentile(sortedSend, 0.5))} ms, p99 ${round1(percentile(sortedSend, 0.99))} ms`,
      }),
      figure(`new post -> post:published on the last of ${sockets} feeds`, percentile(sortedPub, 0.5), null, 'ms', {
        p50: round1(percentile(sortedPub, 0.5)),
        p99: round1(percentile(sortedPub, 0.99)),
        note: 'from the worker-side emit (Redis emitter) to the last socket of both copies; target p99 < 100 ms',
      }),
      figure('memory per idle socket (V8 heap used after a full collection)', perSocket / 1024, null, 'KiB', {
        note:
          `both copies' heap ${heapBefore.map((b) => (b / 2 ** 20).toFixed(1)).join('+')} -> ${heapAfter.map((b) => (b / 2 ** 20).toFixed(1)).join('+')} MiB; ` +
          `RSS ${(rssPerSocket / 1024).toFixed(1)} KiB per socket (${rssBefore.map((b) => (b / 2 ** 20).toFixed(0)).join('+')} -> ${rssAfter.map((b) => (b / 2 ** 20).toFixed(0)).join('+')} MiB)`,
      }),
    );
  } finally {
    for (const s of open) s.disconnect();
    for (const c of copies) await c.stop();
    const keys = await redis.keys(`${prefix}:*`).catch(() => []);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
    await bench.destroy();
  }
  return out;
}
