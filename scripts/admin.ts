/**
 * `npm run admin -- grant <email>` / `revoke <email>`: the operator role (queue dashboard, metrics).
 * Running servers forget the user's cached sessions (through Redis), so a revoke holds at once.
 */
import { normalizeEmail } from '../common/auth-schemas';
import { loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { createRealtime } from '../core/realtime/emitter';
import { clusterNodesOf, createRedis } from '../core/redis';
import { runOrExit } from '../core/run-or-exit';

await runOrExit(async () => {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    console.error('Usage: npm run admin -- grant <email> | revoke <email>');
    process.exit(2);
  }
  const config = loadConfig();
  const db = createDb(config.DATABASE_URL, 1);
  const redis = createRedis(config.REDIS_URL, { commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS, clusterNodes: clusterNodesOf(config) });
  try {
    const changed = await db
      .updateTable('users')
      .set({ role: command === 'grant' ? 'admin' : 'user', updated_at: new Date() })
      .where('email', '=', normalizeEmail(email))
      .returning('id')
      .executeTakeFirst();
    if (!changed) {
      console.error(`No account with the e-mail ${email}`);
      process.exitCode = 1;
    } else {
      const realtime = createRealtime(redis, config.REDIS_PREFIX, (error) =>
        console.error(`Redis did not take the news (${String(error)}): running servers keep the old role for a few seconds`),
      );
      await realtime.forgetSessions({ userIds: [changed.id] });
      console.log(command === 'grant' ? `${email} is now an admin` : `${email} is no longer an admin`);
    }
  } finally {
    redis.disconnect();
    await db.destroy();
  }
});
