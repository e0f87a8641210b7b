import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { QUEUE_NAMES, type QueueName } from '../common/jobs';
import type { DB } from './db/kysely';
import { outboxCounts } from './outbox/outbox';
import type { Queues } from './queues/queues';

/**
 * Prometheus metrics (prom-client). The process registry holds what the process itself measures:
 * Node's defaults (CPU, memory, event-loop lag, GC), HTTP request latency (server) and job
 * durations (worker, in whichever process runs it). Queue depths are read from Redis when
 * scraped, by each app for its own queues (`queueDepthRegistry`), and merged in at scrape time.
 */
export const processRegistry = new Registry();
collectDefaultMetrics({ register: processRegistry });

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by route, method and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [processRegistry],
});

export const jobDuration = new Histogram({
  name: 'queue_job_duration_seconds',
  help: 'Time a worker spent on a job, by queue, job name and outcome (completed, failed, released)',
  labelNames: ['queue', 'job', 'outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800],
  registers: [processRegistry],
});

/**
 * Subscriptions a billing-maintenance step threw for (issue 22), by step (creator-unavailable,
 * renew, expire, remind): each is retried at a later run while the others go on, so a rate above
 * zero is a row that needs a look (the worker's log names it).
 */
export const billingSubscriptionFailures = new Counter({
  name: 'billing_subscription_failures_total',
  help: 'Subscriptions a billing-maintenance step failed for, by step; each is retried at a later run',
  labelNames: ['step'] as const,
  registers: [processRegistry],
});

/** Creators whose payout a weekly payout run could not make (issue 45): each is logged, and the run goes on with the others. */
export const payoutRunFailures = new Counter({
  name: 'payout_run_failures_total',
  help: 'Creators whose scheduled payout threw in a weekly payout run; the others were paid and a later run of the week tries again',
  registers: [processRegistry],
});

/** Visitors' public pages rendered on the server, and those served from a rendering kept for the same data (server/http/server-render.ts). */
export const serverRenders = new Counter({
  name: 'server_render_total',
  help: "Public pages rendered on the server for visitors, by outcome: rendered now, or a rendering of the same page and data kept for a moment",
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

/** Paid pictures marked for a buyer (docs/media.md, "The picture mark"): drawn now, or served from the copy's cache. */
export const pictureMarks = new Counter({
  name: 'picture_marks_total',
  help: 'Paid pictures served with the buyer\'s mark, by outcome: rendered now, or served from this copy\'s cache',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'] as const;

/** A registry with one gauge, `queue_jobs{queue,state}`, filled from Redis on every scrape. */
export function queueDepthRegistry(queues: Pick<Queues, QueueName>): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs in each queue by state, read from Redis when scraped',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    async collect() {
      const counts = await Promise.all(QUEUE_NAMES.map((name) => queues[name].getJobCounts(...STATES)));
      this.reset();
      QUEUE_NAMES.forEach((queue, i) => {
        for (const state of STATES) this.set({ queue, state }, counts[i]![state] ?? 0);
      });
    },
  });
  return registry;
}

/** A registry with one gauge, `outbox_rows{state}`: jobs waiting in the outbox, and those given up (core/outbox). */
export function outboxRegistry(db: DB): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'outbox_rows',
    help: 'Outbox rows whose job has not run through yet (pending) and rows given up after every retry (failed)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const counts = await outboxCounts(db);
      this.set({ state: 'pending' }, counts.pending);
      this.set({ state: 'failed' }, counts.failed);
    },
  });
  return registry;
}

/**
 * A registry with one gauge, `data_exports{status}`: "Download my data" archives by state
 * (pending, ready, failed; expired ones are gone). A failed export is one the user saw fail.
 */
export function dataExportsRegistry(db: DB): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'data_exports',
    help: 'Data exports by status (pending: being built; failed: given up, the user was told)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.selectFrom('data_exports').select(['status', db.fn.countAll<string>().as('n')]).groupBy('status').execute();
      this.reset();
      for (const status of ['pending', 'ready', 'failed'] as const) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
    },
  });
  return registry;
}

/**
 * A registry with one gauge, `ledger_reconciliation_mismatches{provider}`: what the daily
 * reconciliation (issue 45) found that does not match between the ledger, our payments and
 * payouts rows and the provider's own records. Anything above zero needs a look (/admin/payments).
 */
export function reconciliationRegistry(db: DB): Registry {
  const registry = new Registry();
  new Gauge({
    name: 'ledger_reconciliation_mismatches',
    help: 'Mismatches the daily ledger reconciliation found, by provider (listed on /admin/payments)',
    labelNames: ['provider'] as const,
    registers: [registry],
    async collect() {
      const rows = await db.selectFrom('reconciliation_mismatches').select(['provider', db.fn.countAll<string>().as('n')]).groupBy('provider').execute();
      this.reset();
      this.set({ provider: 'all' }, rows.reduce((t, r) => t + Number(r.n), 0));
      for (const r of rows) this.set({ provider: r.provider }, Number(r.n));
    },
  });
  return registry;
}

/** The text a scrape gets: the process's metrics and, when given, the queue depths. */
export async function renderMetrics(...extra: Registry[]): Promise<{ contentType: string; body: string }> {
  const registry = extra.length ? Registry.merge([processRegistry, ...extra]) : processRegistry;
  return { contentType: registry.contentType, body: await registry.metrics() };
}
