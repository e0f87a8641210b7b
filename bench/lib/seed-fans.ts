import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * `count` fans (users `<prefix><i>@bench.test` with a profile each) holding an active subscription
 * to `tierId`, in three set-based statements (10,000 in a few seconds); ANALYZE afterwards lets the
 * planner know the new sizes (the caller runs it after its own rows). Returns the LIKE pattern of
 * their e-mails, for further rows of theirs.
 */
export async function seedSubscribedFans(db: DB, tierId: string, count: number, prefix: string) {
  const like = `${prefix}%@bench.test`;
  await sql`insert into users (email, password_hash, email_verified_at) select ${prefix} || i || '@bench.test', 'x', now() from generate_series(1, ${count}) i`.execute(db);
  await sql`insert into profiles (id, username, display_name, date_of_birth)
    select u.id, ${prefix} || split_part(split_part(u.email, '@', 1), ${prefix}, 2), 'Fan', '1990-01-01' from users u where u.email like ${like}`.execute(db);
  await sql`insert into subscriptions (subscriber_id, tier_id, status, current_period_start, current_period_end, price_cents)
    select u.id, ${tierId}, 'active', now(), now() + interval '30 days', 5000 from users u where u.email like ${like}`.execute(db);
  return { usersLike: like };
}
