import pg from 'pg';
import { demoEmail } from './app';

/**
 * What a failed attempt of a spec changed for good, put back before its retry, straight in the
 * database the e2e server uses: a retry must meet the demo as the first attempt did.
 */
export async function withDatabase<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const { DATABASE_URL } = JSON.parse(process.env.E2E_SERVER_ENV ?? '{}') as { DATABASE_URL?: string };
  if (!DATABASE_URL) throw new Error('E2E_SERVER_ENV is not set: run through tests/e2e/playwright.config.ts');
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The demo fan `user` is a fan again (a failed attempt may have made them a creator). */
export function makeFanAgain(user: string): Promise<void> {
  return withDatabase(async (client) => {
    await client.query(
      'UPDATE profiles SET is_creator = false WHERE id = (SELECT id FROM users WHERE email = $1)',
      [demoEmail(user)],
    );
  });
}
