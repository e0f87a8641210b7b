import { setTimeout as sleep } from 'node:timers/promises';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../common/socket-events';
import type { DB } from '../../core/db/kysely';
import { makePost, makeSessionCookie, makeUser } from '../../tests/helpers/factories';
import { figure, percentile, type Figure } from './figures';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** A tRPC mutation over HTTP as a browser sends it (cookie, same origin). */
export const trpcPost = (appUrl: string, path: string, cookie: string, input: unknown) =>
  fetch(`${appUrl}/trpc/${path}`, { method: 'POST', headers: { cookie, origin: appUrl, 'content-type': 'application/json' }, body: JSON.stringify({ json: input }) });

export interface LikeProbe {
  /** one like or unlike: from its request to `post:likes` on the socket (ms; the event often beats the response) */
  likeOnce(): Promise<number>;
  /** the floor: `n` likes on the quiet app (after 10 unmeasured), 20 ms apart */
  quiet(n: number): Promise<number[]>;
  /** the p99 of likes measured during some work beside its quiet floor, as a figure */
  figure(name: string, during: number[], quiet: number[], what: string): Figure;
  /** each like's request to its response (ms), in the order made: the part of the time the app's answer took */
  responses: number[];
  close(): void;
}

/**
 * "Nothing else delayed": a fan of another creator likes and unlikes one post over HTTP, one at a
 * time, while a socket in that post's room times `post:likes` from the like's request. Measured on
 * the quiet app first (the floor), then during the work a scenario measures (notify-fanout,
 * mass-message).
 */
export async function startLikeProbe(db: DB, appUrl: string): Promise<LikeProbe> {
  const other = await makeUser(db, { isCreator: true });
  const liker = await makeUser(db);
  const likedPost = await makePost(db, null, { creatorId: other.id });
  const { cookie } = await makeSessionCookie(db, liker.id);
  const s: ClientSocket = connect(appUrl, { transports: ['websocket'], extraHeaders: { origin: appUrl }, reconnection: false });
  await new Promise<void>((resolve, reject) => {
    s.once('connect', () => resolve());
    s.once('connect_error', reject);
  });
  const ack = await new Promise<{ ids: string[] }>((resolve) => s.emit('room:join', { kind: 'post', ids: [likedPost.id] }, resolve));
  if (!ack.ids.includes(likedPost.id)) throw new Error('the socket could not join the post room');
  let round = 0;
  const responses: number[] = [];
  const likeOnce = async () => {
    const heard = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('post:likes never came')), 10_000);
      s.once('post:likes', () => {
        clearTimeout(timer);
        resolve(performance.now());
      });
    });
    const sent = performance.now();
    const res = await trpcPost(appUrl, `posts.${round++ % 2 === 0 ? 'like' : 'unlike'}`, cookie, { postId: likedPost.id });
    await res.arrayBuffer();
    responses.push(performance.now() - sent);
    if (!res.ok) throw new Error(`like: ${res.status}`);
    return (await heard) - sent;
  };
  return {
    likeOnce,
    async quiet(n) {
      for (let i = 0; i < 10; i++) await likeOnce();
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        out.push(await likeOnce());
        await sleep(20);
      }
      return out;
    },
    figure(name, during, quiet, what) {
      const sortedQuiet = [...quiet].sort((a, b) => a - b);
      const sortedDuring = [...during].sort((a, b) => a - b);
      const duringP99 = percentile(sortedDuring, 0.99);
      return figure(name, duringP99, percentile(sortedQuiet, 0.99), 'ms', {
        p50: round1(percentile(sortedDuring, 0.5)),
        p99: round1(duringP99),
        note: `${during.length} likes while ${what} ran; floor: the p99 of ${quiet.length} likes on the quiet app before it (p50 ${round1(percentile(sortedQuiet, 0.5))} ms)`,
      });
    },
    responses,
    close: () => s.disconnect(),
  };
}
