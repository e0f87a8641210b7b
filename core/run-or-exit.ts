import { existsSync } from 'node:fs';
import { ConfigError } from './config';
import { ServiceUnreachable } from './service-unreachable';

/** Entry points print a bad setting or an unreachable service as plain lines, not a stack trace. */
export async function runOrExit(main: () => Promise<void>): Promise<void> {
  // A local .env is optional; variables already set in the environment win.
  if (existsSync('.env')) process.loadEnvFile('.env');
  try {
    await main();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof ServiceUnreachable) {
      console.error(error.message);
    } else {
      console.error(error);
    }
    process.exit(1);
  }
}
