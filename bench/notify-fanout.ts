import { sql } from 'kysely';
import { createECDH, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { generateVapidKeys } from '../core/push/web-push';
import { newPostGroupKey } from '../domain/notifications/notify';
import { makePost, makeSessionCookie, makeUser } from '../tests/helpers/factories';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, percentile, type Figure } from './lib/figures';
import { watchFanout } from './lib/fanout-watch';
import { startLikeProbe, trpcPost, type LikeProbe } from './lib/like-probe';
import { startAppProcess, startPushReceiverProcess, startWorkerProcess, type BenchProcess } from './lib/processes';
import { seedSubscribedFans } from './lib/seed-fans';

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Issue 28's "no flood": a creator with SUBSCRIBERS active subscribers (seeded in SQL, each with
 * one browser subscribed to push, whose push service is a local HTTP receiver) publishes a draft
 * through the API (profiles.publishDraft, the post lifecycle's own path: the `fan-out-post` outbox
 * row, the `notify-fanout` queue's batches, one `send-push` each, encrypted by web-push and
 * POSTed). Measured from the publish request: the last of the post's notification rows written,
 * and the last push received. Meanwhile another fan likes and unlikes a post of another creator
 * over HTTP, one at a time, and a socket in that post's room times `post:likes` from the like's
 * request; the same likes on the quiet app before the post are the floor of that p99.
 * The app and the worker are separate processes, as in production.
 */
export async function benchNotifyFanout(ctx: BenchContext): Promise<Array<Figure | string>> {
  const SUBSCRIBERS = Number(process.env.BENCH_FANOUT_SUBSCRIBERS ?? (ctx.quick ? 500 : 10_000));
  const QUIET_LIKES = ctx.quick ? 20 : 100;
  const bench = await createBenchDb();
  const procs: BenchProcess[] = [];
  let probe: LikeProbe | null = null;
  // the push service runs in a process of its own (bench/push-receiver.ts), as a real one is elsewhere
  const receiver = await startPushReceiverProcess();
  procs.push(receiver);
  const pushUrl = receiver.url;
  const out: Array<Figure | string> = [];
  try {
    const db = bench.db;
    const creator = await makeUser(db, { isCreator: true, username: 'fanoutcreator' });
    const { id: tierId } = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 50_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
    // the fans, their subscriptions and one push browser each, in four statements
    const keys = createECDH('prime256v1');
    keys.generateKeys();
    const p256dh = keys.getPublicKey().toString('base64url');
    const auth = randomBytes(16).toString('base64url');
    const t0 = performance.now();
    const { usersLike } = await seedSubscribedFans(db, tierId, SUBSCRIBERS, 'fanout');
    await sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth)
      select u.id, ${pushUrl} || '/p/' || u.id, ${p256dh}, ${auth} from users u where u.email like ${usersLike}`.execute(db);
    await sql`analyze`.execute(db);
    out.push(`notify-fanout: ${SUBSCRIBERS} active subscribers with a push browser each, seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const vapid = generateVapidKeys();
    const env = { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey, PUSH_ALLOW_LOCAL_ENDPOINTS: 'true', LOG_LEVEL: 'error', METRICS_TOKEN: randomBytes(24).toString('hex') };
    const app = await startAppProcess(bench.url, env);
    procs.push(app);
    const worker = await startWorkerProcess(bench.url, env);
    procs.push(worker);

    const draft = await makePost(db, null, { creatorId: creator.id, status: 'draft' });
    const { cookie: creatorCookie } = await makeSessionCookie(db, creator.id);
    probe = await startLikeProbe(db, app.url);
    const quietWatch = process.env.BENCH_FANOUT_WATCH === '1' ? watchFanout({ databaseUrl: bench.url, app, worker, metricsToken: env.METRICS_TOKEN }, 'quiet') : null;
    await quietWatch?.start();
    const quiet = await probe.quiet(QUIET_LIKES);
    if (quietWatch) out.push(...(await quietWatch.stop()));

    // the post: the creator publishes the draft through the API
    const rowsOfPost = async () =>
      Number((await db.selectFrom('notifications').select((eb) => eb.fn.countAll<string>().as('n')).where('group_key', '=', newPostGroupKey(draft.id)).executeTakeFirstOrThrow()).n);
    // BENCH_FANOUT_WATCH=1: where the window's time goes (bench/lib/fanout-watch.ts)
    const watch = process.env.BENCH_FANOUT_WATCH === '1' ? watchFanout({ databaseUrl: bench.url, app, worker, metricsToken: env.METRICS_TOKEN, others: [{ name: 'push service', pid: receiver.pid }] }) : null;
    await watch?.start();
    const responsesBefore = probe.responses.length;
    const start = performance.now();
    const startedAt = Date.now();
    const published = await trpcPost(app.url, 'profiles.publishDraft', creatorCookie, { postId: draft.id });
    await published.arrayBuffer();
    if (!published.ok) throw new Error(`publishDraft: ${published.status}`);
    const during: number[] = [];
    let rowsDoneAt = 0;
    const deadline = start + (ctx.quick ? 60_000 : 600_000);
    let checked = 0;
    let pushes = 0;
    let lastPushAt = 0;
    while (pushes < SUBSCRIBERS || !rowsDoneAt) {
      if (performance.now() > deadline) throw new Error(`after ${((deadline - start) / 1000).toFixed(0)} s: ${await rowsOfPost()} rows, ${pushes} pushes of ${SUBSCRIBERS}`);
      if (pushes < SUBSCRIBERS) during.push(await probe.likeOnce());
      // the row count and the pushes every 250 ms (asking more often would weigh on what is measured)
      if (performance.now() - checked > 250) {
        checked = performance.now();
        if (!rowsDoneAt && (await rowsOfPost()) >= SUBSCRIBERS) rowsDoneAt = performance.now();
        ({ pushes, lastAt: lastPushAt } = await receiver.count());
      }
      await sleep(20);
    }
    if (watch) {
      out.push(...(await watch.stop()));
      const during = probe.responses.slice(responsesBefore).sort((a, b) => a - b);
      const quietResponses = probe.responses.slice(0, responsesBefore).sort((a, b) => a - b);
      out.push(`  watch: the like's response (request to answer) p50/p99 ${percentile(during, 0.5).toFixed(1)} / ${percentile(during, 0.99).toFixed(1)} ms during, ${percentile(quietResponses, 0.5).toFixed(1)} / ${percentile(quietResponses, 0.99).toFixed(1)} ms quiet`);
    }
    out.push(
      figure(`new post -> last of ${SUBSCRIBERS} notification rows`, (rowsDoneAt - start) / 1000, null, 's', {
        note: 'from the publishDraft request to the row count reaching every subscriber (checked every 250 ms); batches of 1,000 on the notify-fanout queue',
      }),
      figure(`new post -> last of ${SUBSCRIBERS} pushes received`, (lastPushAt - startedAt) / 1000, null, 's', {
        note: `web-push encryption and a POST per browser to a local push service; ${round1(SUBSCRIBERS / ((lastPushAt - startedAt) / 1000))} pushes/s`,
      }),
      probe.figure('like -> post:likes p99 during the fan-out', during, quiet, 'the fan-out'),
    );
    return out;
  } finally {
    probe?.close();
    for (const p of procs) await p.stop();
    await bench.destroy();
  }
}
