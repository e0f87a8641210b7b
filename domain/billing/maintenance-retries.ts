import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * A step that threw for a subscription is not tried for it again before this long (a few runs
 * later), and rows that never failed are served first: a row that always fails cannot keep the
 * others out of a batch.
 */
export const RETRY_AFTER_FAILURE_MS = 30 * 60_000;

export type BillingStep = 'creator-unavailable' | 'renew' | 'expire' | 'remind';

/** A subscription a step threw for: logged and counted by the job, tried again later. */
export interface BillingFailure {
  subscriptionId: string;
  step: BillingStep;
  error: unknown;
}

/**
 * Rows set aside after a failure (subscription_billing_retries, joined as `r`) wait until their
 * retry_at, and then come behind every row that never failed.
 */
export const retryable = (now: Date) => sql<boolean>`(r.retry_at is null or r.retry_at <= ${now})`;
export const neverFailedFirst = sql`r.subscription_id is not null`;
export const setAside = sql<boolean>`r.subscription_id is not null`.as('set_aside');

/** One subscription's work in a step: its result, or undefined when it threw (reported and set aside). */
export type IsolatedRow = <T>(step: BillingStep, row: { id: string; set_aside: boolean }, work: () => Promise<T>) => Promise<T | undefined>;

/**
 * One subscription's step, isolated: a throw is reported in `failures`, the row set aside for a
 * while (in a table of its own, so even a row the database refuses to change is), and the run
 * goes on. A row that succeeds is no longer set aside.
 */
export function isolatedRow(db: DB, now: Date, failures: BillingFailure[]): IsolatedRow {
  return async (step, row, work) => {
    let result;
    try {
      result = await work();
    } catch (error) {
      failures.push({ subscriptionId: row.id, step, error });
      const retryAt = new Date(now.getTime() + RETRY_AFTER_FAILURE_MS);
      try {
        await db
          .insertInto('subscription_billing_retries')
          .values({ subscription_id: row.id, step, retry_at: retryAt })
          .onConflict((oc) => oc.column('subscription_id').doUpdateSet((eb) => ({ step, retry_at: retryAt, failures: sql`${eb.ref('subscription_billing_retries.failures')} + 1` })))
          .execute();
      } catch (markError) {
        // the subscription was deleted meanwhile (an account deletion): nothing left to set aside
        if ((markError as { code?: string }).code !== '23503') throw markError;
      }
      return undefined;
    }
    if (row.set_aside) await db.deleteFrom('subscription_billing_retries').where('subscription_id', '=', row.id).execute();
    return result;
  };
}
