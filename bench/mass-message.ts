import { sql } from 'kysely';
import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { makeSessionCookie, makeUser } from '../tests/helpers/factories';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, percentile, type Figure } from './lib/figures';
import { watchFanout } from './lib/fanout-watch';
import { startLikeProbe, trpcPost, type LikeProbe } from './lib/like-probe';
import { startAppProcess, startWorkerProcess, type BenchProcess } from './lib/processes';
import { seedSubscribedFans } from './lib/seed-fans';

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * Issue 27's "a mass message to 10,000 subscribers": a creator with SUBSCRIBERS active subscribers
 * (seeded in SQL) sends one message with a priced image to all of them through the API
 * (massMessages.create: the row and its outbox job, then the `mass-messages` queue's batches,
 * each recipient's message, both conversations, notification and delivery job). Measured from the
 * request: the last copy written (the count of the mass message's copies, every 250 ms) and the
 * message marked sent. Meanwhile the like probe (bench/lib/like-probe.ts) times a like's realtime
 * event; its floor is the same likes on the quiet app before. App and worker run as in production.
 */
export async function benchMassMessage(ctx: BenchContext): Promise<Array<Figure | string>> {
  const SUBSCRIBERS = Number(process.env.BENCH_MASS_SUBSCRIBERS ?? (ctx.quick ? 500 : 10_000));
  const QUIET_LIKES = ctx.quick ? 20 : 100;
  const bench = await createBenchDb();
  const procs: BenchProcess[] = [];
  let probe: LikeProbe | null = null;
  const out: Array<Figure | string> = [];
  try {
    const db = bench.db;
    const creator = await makeUser(db, { isCreator: true, username: 'masscreator' });
    const { id: tierId } = await db.insertInto('subscription_tiers').values({ creator_id: creator.id, name: 'Gold', price_cents: 50_00, payment_interval: 'monthly' }).returning('id').executeTakeFirstOrThrow();
    const t0 = performance.now();
    await seedSubscribedFans(db, tierId, SUBSCRIBERS, 'massfan');
    await sql`analyze`.execute(db);
    out.push(`mass-message: ${SUBSCRIBERS} active subscribers seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    // the paid file, as the worker leaves a processed chat image (its bytes are not what is measured)
    const attachmentId = randomUUID();
    await db
      .insertInto('message_attachments')
      .values({ id: attachmentId, owner_id: creator.id, kind: 'image', status: 'ready', original_filename: 'set.jpg', byte_size: 1000, storage_key: `messages/${attachmentId}/run/file.jpg`, content_type: 'image/jpeg', width: 1200, height: 800 })
      .execute();

    const env = { LOG_LEVEL: 'error', METRICS_TOKEN: randomBytes(24).toString('hex') };
    const app = await startAppProcess(bench.url, env);
    procs.push(app);
    const worker = await startWorkerProcess(bench.url, env);
    procs.push(worker);
    const { cookie: creatorCookie } = await makeSessionCookie(db, creator.id);
    probe = await startLikeProbe(db, app.url);
    const quietWatch = process.env.BENCH_FANOUT_WATCH === '1' ? watchFanout({ databaseUrl: bench.url, app, worker, metricsToken: env.METRICS_TOKEN }, 'quiet') : null;
    await quietWatch?.start();
    const quiet = await probe.quiet(QUIET_LIKES);
    if (quietWatch) out.push(...(await quietWatch.stop()));

    // BENCH_FANOUT_WATCH=1: where the window's time goes (bench/lib/fanout-watch.ts)
    const watch = process.env.BENCH_FANOUT_WATCH === '1' ? watchFanout({ databaseUrl: bench.url, app, worker, metricsToken: env.METRICS_TOKEN }) : null;
    await watch?.start();
    const responsesBefore = probe.responses.length;
    const load = os.loadavg()[0]!.toFixed(1);
    const start = performance.now();
    const res = await trpcPost(app.url, 'massMessages.create', creatorCookie, { audience: 'active', content: 'A new set, just for you', attachmentId, price: '49.90', clientId: randomUUID() });
    const body = (await res.json()) as { result?: { data?: { json?: { id: string } } } };
    const massMessageId = body.result?.data?.json?.id;
    if (!res.ok || !massMessageId) throw new Error(`massMessages.create: ${res.status} ${JSON.stringify(body)}`);
    const copies = async () =>
      Number((await db.selectFrom('messages').select((eb) => eb.fn.countAll<string>().as('n')).where('mass_message_id', '=', massMessageId).executeTakeFirstOrThrow()).n);
    const during: number[] = [];
    let lastCopyAt = 0;
    const deadline = start + (ctx.quick ? 60_000 : 600_000);
    let checked = 0;
    while (!lastCopyAt) {
      if (performance.now() > deadline) throw new Error(`after ${((deadline - start) / 1000).toFixed(0)} s: ${await copies()} copies of ${SUBSCRIBERS}`);
      during.push(await probe.likeOnce());
      // the copies counted every 250 ms (its own query would otherwise weigh on what is measured)
      if (performance.now() - checked > 250) {
        checked = performance.now();
        if ((await copies()) >= SUBSCRIBERS) lastCopyAt = performance.now();
      }
      await sleep(20);
    }
    // the last batch finds nobody left and marks the message sent
    const ended = () => db.selectFrom('mass_messages').select(['status', 'recipients_total']).where('id', '=', massMessageId).executeTakeFirstOrThrow();
    let row = await ended();
    while (row.status !== 'sent' && performance.now() < deadline) {
      await sleep(100);
      row = await ended();
    }
    if (row.status !== 'sent' || row.recipients_total !== SUBSCRIBERS) throw new Error(`mass message ended ${row.status} with ${row.recipients_total} of ${SUBSCRIBERS}`);
    if (watch) {
      out.push(...(await watch.stop()));
      const during = probe.responses.slice(responsesBefore).sort((a, b) => a - b);
      const quietResponses = probe.responses.slice(0, responsesBefore).sort((a, b) => a - b);
      out.push(`  watch: the like's response (request to answer) p50/p99 ${percentile(during, 0.5).toFixed(1)} / ${percentile(during, 0.99).toFixed(1)} ms during, ${percentile(quietResponses, 0.5).toFixed(1)} / ${percentile(quietResponses, 0.99).toFixed(1)} ms quiet`);
    }
    const seconds = (lastCopyAt - start) / 1000;
    out.push(
      figure(`mass message -> last of ${SUBSCRIBERS} threads`, seconds, null, 's', {
        note: `from the massMessages.create request (49.90, a paid image) to the copies' count reaching every subscriber (checked every 250 ms): ${round2(seconds / (SUBSCRIBERS / 1000))} s per 1,000 recipients; batches of 500 on the mass-messages queue; load average ${load} when it was sent`,
      }),
      probe.figure('like -> post:likes p99 during the mass message', during, quiet, 'the mass message'),
    );
    return out;
  } finally {
    probe?.close();
    for (const p of procs) await p.stop();
    await bench.destroy();
  }
}
