import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { generateVapidKeys } from '../core/push/web-push';

/**
 * Web push needs a VAPID key pair that stays the same across restarts (browsers' subscriptions are
 * bound to its public key). When the settings have none, the pair in `.env` is used, and on the
 * very first start a new pair is generated and written there (issue 28).
 */
export function ensureVapidKeys(envFile = '.env', env: NodeJS.ProcessEnv = process.env): 'set' | 'read' | 'generated' {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) return 'set';
  const text = existsSync(envFile) ? readFileSync(envFile, 'utf8') : '';
  const read = (name: string) => new RegExp(`^${name}=(.+)$`, 'm').exec(text)?.[1]?.trim();
  const publicKey = read('VAPID_PUBLIC_KEY');
  const privateKey = read('VAPID_PRIVATE_KEY');
  if (publicKey && privateKey) {
    env.VAPID_PUBLIC_KEY = publicKey;
    env.VAPID_PRIVATE_KEY = privateKey;
    return 'read';
  }
  const pair = generateVapidKeys();
  const lead = text && !text.endsWith('\n') ? '\n' : '';
  appendFileSync(envFile, `${lead}# web push (generated on first start; keep them: browsers' subscriptions depend on them)\nVAPID_PUBLIC_KEY=${pair.publicKey}\nVAPID_PRIVATE_KEY=${pair.privateKey}\n`, { mode: 0o600 });
  env.VAPID_PUBLIC_KEY = pair.publicKey;
  env.VAPID_PRIVATE_KEY = pair.privateKey;
  return 'generated';
}
