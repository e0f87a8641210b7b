import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { createSession, generateSessionToken } from '../server/auth/session';
import { createBenchDb } from './lib/bench-db';
import type { BenchContext } from './lib/context';
import { figure, type Figure } from './lib/figures';
import { startAppProcess } from './lib/processes';

/**
 * Subscribing under load (issue 11): FANS fans of one creator subscribe to the same weekly tier,
 * 50 requests in flight at a time, every fan's request sent twice with the same idempotency key
 * (a double click). Checked afterwards: exactly one subscription, one subscribers row and one
 * payment per fan (no lost or doubled rows). The figure is subscriptions per second through the
 * app (HTTP, session, tRPC, the advisory lock, the provider, three inserts in one transaction)
 * beside a floor: the same rows inserted by one SQL statement (the least work that leaves the
 * same state), counted as subscriptions per second.
 */
export async function benchSubscribe(ctx: BenchContext): Promise<Array<Figure | string>> {
  const FANS = Math.max(100, Math.round(2_000 * ctx.scale));
  const bench = await createBenchDb();
  const out: Array<Figure | string> = [];
  try {
    const db = bench.db;
    const { id: creatorId } = await db
      .insertInto('users')
      .values({ email: 'bench-creator@bench.test', password_hash: 'x', email_verified_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('profiles').values({ id: creatorId, username: 'benchcreator', display_name: 'Bench Creator', date_of_birth: '1990-01-01', is_creator: true }).execute();
    const { id: tierId } = await db
      .insertInto('subscription_tiers')
      .values({ creator_id: creatorId, name: 'Gold', price_cents: 50_00, payment_interval: 'weekly', discount_percentage: 20 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fans = (
      await sql<{ id: string }>`
        with u as (
          insert into users (email, password_hash, email_verified_at)
          select 'bench-fan-' || i || '@bench.test', 'x', now() from generate_series(1, ${FANS}) i returning id, email
        )
        insert into profiles (id, username, display_name, date_of_birth)
        select id, 'benchfan' || split_part(split_part(email, '@', 1), '-', 3), 'Bench Fan', '1990-01-01' from u returning id`.execute(db)
    ).rows.map((r) => r.id);
    const cookies: string[] = [];
    for (const id of fans) {
      const token = generateSessionToken();
      await createSession(db, token, id);
      cookies.push(`session=${token}`);
    }

    const app = await startAppProcess(bench.url);
    let elapsed = 0;
    let failures = 0;
    const failureSamples: string[] = [];
    try {
      const send = (i: number, key: string) =>
        fetch(`${app.url}/trpc/subscriptions.subscribe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: cookies[i]!, origin: app.url },
          body: JSON.stringify({ json: { tierId, idempotencyKey: key, confirmedAmount: '40.00' } }),
        }).then(
          async (r) => {
            if (r.ok) return 0;
            if (failureSamples.length < 3) failureSamples.push(`${r.status} ${(await r.text()).slice(0, 200)}`);
            return 1;
          },
          (e: Error) => {
            if (failureSamples.length < 3) failureSamples.push(e.message);
            return 1;
          },
        );
      const jobs = fans.map((_, i) => i);
      let next = 0;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: ctx.connections }, async () => {
          while (next < jobs.length) {
            const i = jobs[next++]!;
            const key = randomUUID();
            // the double click: two identical requests at once
            const [a, b] = await Promise.all([send(i, key), send(i, key)]);
            failures += a + b;
          }
        }),
      );
      elapsed = (performance.now() - started) / 1000;
    } finally {
      await app.stop();
    }
    const counts = await sql<{ subs: string; subscribers: string; payments: string; doubled: string }>`
      select (select count(*) from subscriptions) as subs, (select count(*) from subscribers) as subscribers,
             (select count(*) from payments) as payments,
             (select count(*) from (select subscriber_id from subscriptions group by subscriber_id having count(*) > 1) d) as doubled`.execute(db);
    const c = counts.rows[0]!;
    const intact = Number(c.subs) === FANS && Number(c.subscribers) === FANS && Number(c.payments) === FANS && Number(c.doubled) === 0;
    for (const sample of failureSamples) out.push(`  failed: ${sample}`);
    out.push(
      `subscribe: ${FANS} fans x 2 identical requests, ${ctx.connections} fans at a time: ${c.subs} subscriptions, ${c.subscribers} subscribers rows, ${c.payments} payments, ${c.doubled} doubled, ${failures} failed requests -> ${intact ? 'OK' : 'ROWS LOST OR DOUBLED'}`,
    );

    // the floor: the same three inserts for every fan in one statement, on a clean slate
    // cascade: the ledger and what else refers to these rows goes with them (the month totals a
    // trigger keeps from the ledger's lines are no foreign key of theirs, so they are named)
    await sql`truncate payments, subscribers, subscriptions, ledger_month_totals cascade`.execute(db);
    const floorStarted = performance.now();
    await sql`
      with s as (
        insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
        select id, ${tierId}, 'active', now(), now() + interval '7 days', 4000 from unnest(${fans}::uuid[]) as f(id)
        returning id, subscriber_id
      ), m as (
        insert into subscribers (creator_id, subscriber_id, tier_id, status)
        select ${creatorId}, subscriber_id, ${tierId}, 'active' from s
      )
      insert into payments (user_id, tier_id, creator_id, subscription_id, description, idempotency_key, amount_cents, provider, provider_ref, status)
      select subscriber_id, ${tierId}, ${creatorId}, id, 'Bench Creator — Gold', gen_random_uuid()::text, 4000, 'builtin', 'floor_' || id, 'succeeded' from s`.execute(db);
    const floorSeconds = (performance.now() - floorStarted) / 1000;
    out.push(
      figure('subscriptions.subscribe (50 fans at a time)', FANS / elapsed, FANS / floorSeconds, 'req/s', {
        note: `subscriptions per second (each fan's double click counts once); floor: the same rows in one INSERT statement${intact ? '' : '; ROWS LOST OR DOUBLED'}`,
        errors: failures,
      }),
    );
  } finally {
    await bench.destroy();
  }
  return out;
}
