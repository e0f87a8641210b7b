import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { io as connect, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../common/socket-events';
import { makeSessionCookie, makeUser } from '../tests/helpers/factories';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, loadFigure, type Figure } from './lib/figures';
import { runLoad } from './lib/load';
import { startAppProcess, startFloorProcess } from './lib/processes';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;

/** The user the reads are measured for: `u1`, with a conversation with each of u2..u(N+1). */
const ME = "md5('u1')::uuid";

/**
 * The chat list page as `messages.chatList` answers it (partner profile, last message, unread
 * count per conversation, 21 rows to know whether there is more), in one statement: the floor.
 */
const CHAT_LIST_FLOOR = `
  with v as (select user_id from sessions where id = $1 and expires_at > now())
  select c.partner_id, c.last_message_at, pr.username, pr.display_name, pr.avatar_url, pr.is_verified, pr.is_premium,
         lm.id, lm.sender_id, lm.content, lm.created_at,
         (select count(*) from messages u where u.recipient_id = v.user_id and u.sender_id = c.partner_id and u.read_at is null) as unread
  from v join conversations c on c.user_id = v.user_id
  join profiles pr on pr.id = c.partner_id
  left join messages lm on lm.id = c.last_message_id
  order by c.last_message_at desc, c.partner_id desc limit 21`;

/** A thread page as `messages.thread` answers it (reactions with the viewer's own), in one statement. */
const THREAD_FLOOR = `
  with v as (select user_id from sessions where id = $1 and expires_at > now()),
       p as (select id from profiles where username = $2)
  select m.id, m.sender_id, m.recipient_id, m.content, m.reply_to_id, m.created_at, m.edited_at, m.read_at,
         (select coalesce(json_agg(json_build_object('emoji', x.emoji, 'count', x.n, 'mine', x.mine)), '[]'::json)
            from (select mr.emoji, count(*) n, bool_or(mr.user_id = v.user_id) mine from message_reactions mr
                  where mr.message_id = m.id group by mr.emoji) x) as reactions
  from v, p, messages m
  where least(m.sender_id, m.recipient_id) = least(v.user_id, p.id) and greatest(m.sender_id, m.recipient_id) = greatest(v.user_id, p.id)
  order by m.created_at desc, m.id desc limit 21`;

/**
 * Reads of the inbox for a user with 1,000 conversations among 1,000,000 messages (1,000 per
 * conversation, 5% unread, some reactions): the chat list's first page and a thread's newest
 * page, through the app in its own process, beside one hand-written statement each on node:http + pg.
 */
export async function benchMessagesReads(ctx: BenchContext): Promise<Array<Figure | string>> {
  const partners = Math.max(20, Math.round(1_000 * ctx.scale));
  const perConversation = Math.max(50, Math.round(1_000 * ctx.scale));
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    const started = Date.now();
    await sql`
      insert into users (id, email, password_hash, email_verified_at)
      select md5('u' || i)::uuid, 'u' || i || '@bench.test', 'x', now() from generate_series(1, ${sql.lit(partners + 1)}) i`.execute(bench.db);
    await sql`
      insert into profiles (id, username, display_name, date_of_birth, is_verified, is_premium)
      select md5('u' || i)::uuid, 'user' || i, 'User ' || i, '1990-01-01', i % 50 = 0, i % 7 = 0 from generate_series(1, ${sql.lit(partners + 1)}) i`.execute(bench.db);
    // alternating directions, one message a minute per conversation, every 20th one to me unread
    await sql`
      insert into messages (sender_id, recipient_id, content, created_at, read_at)
      select case when k % 2 = 0 then ${sql.raw(ME)} else md5('u' || p)::uuid end,
             case when k % 2 = 0 then md5('u' || p)::uuid else ${sql.raw(ME)} end,
             'Message ' || k || ' of conversation ' || p,
             now() - ((${sql.lit(perConversation)} - k) || ' minutes')::interval - (p || ' seconds')::interval,
             case when k % 20 = 1 then null else now() end
      from generate_series(2, ${sql.lit(partners + 1)}) p, generate_series(1, ${sql.lit(perConversation)}) k`.execute(bench.db);
    await sql`
      insert into message_reactions (message_id, user_id, emoji)
      select id, sender_id, '🔥' from messages where content like 'Message 1_ %'`.execute(bench.db);
    await sql`
      insert into conversations (user_id, partner_id, last_message_id, last_message_at)
      select distinct on (x.u, x.p) x.u, x.p, x.id, x.created_at
      from (select sender_id u, recipient_id p, id, created_at from messages union all select recipient_id, sender_id, id, created_at from messages) x
      order by x.u, x.p, x.created_at desc, x.id desc`.execute(bench.db);
    await sql`analyze`.execute(bench.db);
    const total = partners * perConversation;
    out.push(`messages: a user with ${partners} conversations among ${total} messages (seeded in ${Date.now() - started} ms)`);

    const me = await bench.db.selectFrom('profiles').select('id').where('username', '=', 'user1').executeTakeFirstOrThrow();
    const { cookie } = await makeSessionCookie(bench.db, me.id);
    const headers = { cookie };
    const partner = `user${2 + Math.floor(partners / 2)}`;
    const app = await startAppProcess(bench.url);
    const floor = await startFloorProcess(bench.url, [
      { sql: CHAT_LIST_FLOOR, values: ['$session'] },
      { sql: THREAD_FLOOR, values: ['$session', partner] },
    ]);
    try {
      const trpc = (proc: string, input: unknown) => `${app.url}/trpc/messages.${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`;
      const chatUrl = trpc('chatList', {});
      const threadUrl = trpc('thread', { username: partner });
      // both sides answer the same rows
      const appChats = (await (await fetch(chatUrl, { headers })).json()) as { result: { data: { json: { chats: { partner: { id: string } }[] } } } };
      const floorChats = (await (await fetch(`${floor.url}/?r=0`, { headers })).json()) as { partner_id: string }[];
      if (appChats.result.data.json.chats.map((c) => c.partner.id).join() !== floorChats.slice(0, 20).map((r) => r.partner_id).join()) {
        throw new Error('app and floor disagree on the chat list');
      }
      const appThread = (await (await fetch(threadUrl, { headers })).json()) as { result: { data: { json: { messages: { id: string }[] } } } };
      const floorThread = (await (await fetch(`${floor.url}/?r=1`, { headers })).json()) as { id: string }[];
      if (appThread.result.data.json.messages.map((m) => m.id).reverse().join() !== floorThread.slice(0, 20).map((r) => r.id).join()) {
        throw new Error('app and floor disagree on the thread page');
      }
      const load = { connections: ctx.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, headers };
      const chatFloor = await runLoad(`${floor.url}/?r=0`, load);
      const chatApp = await runLoad(chatUrl, load);
      out.push(loadFigure('GET /trpc/messages.chatList (first page of 20)', chatApp, chatFloor, 'floor: the same page, last messages and unread counts in one statement on node:http + pg'));
      const threadFloor = await runLoad(`${floor.url}/?r=1`, load);
      const threadApp = await runLoad(threadUrl, load);
      out.push(loadFigure('GET /trpc/messages.thread (newest 20)', threadApp, threadFloor, 'floor: the same page with reactions in one statement on node:http + pg'));
    } finally {
      await floor.stop();
      await app.stop();
    }
  } finally {
    await bench.destroy();
  }
  return out;
}

/**
 * Delivery time of a direct message: from the start of the sender's `messages.send` request to
 * the `message:new` event on the recipient's socket, one message at a time, over 1,000 messages
 * (senders rotate, as the send limit is per user), with 1,000 idle signed-out sockets connected.
 * No floor exists for this; the target (p99 under 100 ms) stands in its place.
 */
export async function benchMessageDelivery(ctx: BenchContext): Promise<Array<Figure | string>> {
  const idle = ctx.quick ? 50 : 1_000;
  const messages = ctx.quick ? 50 : 1_000;
  const senders = Math.ceil(messages / 25);
  const bench = await createBenchDb();
  const open: ClientSocket[] = [];
  const out: Array<Figure | string> = [];
  try {
    const recipient = await makeUser(bench.db, { username: 'inbox' });
    const from = await Promise.all(Array.from({ length: senders }, () => makeUser(bench.db)));
    const cookies = await Promise.all(from.map(async (u) => (await makeSessionCookie(bench.db, u.id)).cookie));
    const app = await startAppProcess(bench.url);
    try {
      for (let i = 0; i < idle; i += 50) {
        await Promise.all(
          Array.from({ length: Math.min(50, idle - i) }, async () => {
            const socket: ClientSocket = connect(app.url, { transports: ['websocket'], extraHeaders: { origin: app.url }, reconnection: false });
            open.push(socket);
            await new Promise<void>((resolve, reject) => {
              socket.once('connect', () => resolve());
              socket.once('connect_error', reject);
            });
          }),
        );
      }
      const { cookie } = await makeSessionCookie(bench.db, recipient.id);
      const inbox: ClientSocket = connect(app.url, { transports: ['websocket'], extraHeaders: { origin: app.url, cookie }, reconnection: false });
      open.push(inbox);
      await new Promise<void>((resolve, reject) => {
        inbox.once('connect', () => resolve());
        inbox.once('connect_error', reject);
      });
      await sleep(500);

      const times: number[] = [];
      for (let n = 0; n < messages; n++) {
        const clientId = randomUUID();
        const arrived = new Promise<number>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`message ${n} never arrived`)), 10_000);
          const listener = (e: { message: { clientId: string | null } }) => {
            if (e.message.clientId !== clientId) return;
            clearTimeout(timer);
            inbox.off('message:new', listener);
            resolve(performance.now());
          };
          inbox.on('message:new', listener);
        });
        const sent = performance.now();
        const res = await fetch(`${app.url}/trpc/messages.send`, {
          method: 'POST',
          headers: { cookie: cookies[n % senders]!, origin: app.url, 'content-type': 'application/json' },
          body: JSON.stringify({ json: { username: recipient.username, content: `Message ${n}`, clientId } }),
        });
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`send: ${res.status}`);
        times.push((await arrived) - sent);
      }
      times.sort((a, b) => a - b);
      out.push(
        figure('direct message: request to recipient socket', pct(times, 0.5), null, 'ms', {
          p50: pct(times, 0.5),
          p99: pct(times, 0.99),
          note: `${messages} messages, one at a time, ${idle} idle sockets connected; target p99 < 100 ms`,
        }),
      );
    } finally {
      for (const s of open) s.disconnect();
      await app.stop();
    }
  } finally {
    await bench.destroy();
  }
  return out;
}
