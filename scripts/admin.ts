/** `npm run admin -- grant <email>` / `revoke <email>`: the operator role (queue dashboard, metrics). */
import { normalizeEmail } from '../common/auth-schemas';
import { loadConfig } from '../core/config';
import { createDb } from '../core/db/kysely';
import { runOrExit } from '../core/run-or-exit';

await runOrExit(async () => {
  const [command, email] = process.argv.slice(2);
  if ((command !== 'grant' && command !== 'revoke') || !email) {
    console.error('Usage: npm run admin -- grant <email> | revoke <email>');
    process.exit(2);
  }
  const db = createDb(loadConfig().DATABASE_URL, 1);
  try {
    const result = await db
      .updateTable('users')
      .set({ role: command === 'grant' ? 'admin' : 'user', updated_at: new Date() })
      .where('email', '=', normalizeEmail(email))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) {
      console.error(`No account with the e-mail ${email}`);
      process.exitCode = 1;
    } else {
      console.log(command === 'grant' ? `${email} is now an admin` : `${email} is no longer an admin`);
    }
  } finally {
    await db.destroy();
  }
});
