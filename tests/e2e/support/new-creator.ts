import { expect, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { e2eBaseURL, trpcMutation } from './app';
import { latestMailTo } from './outbox';

const PASSWORD = 'a-good-password';

/**
 * The built-in provider's test verification of the signed-in user's identity (issue 47 item 1): a
 * creator sells nothing (tiers, prices, tips) before it. The e2e server runs on the built-in provider.
 */
export async function verifyIdentity(request: APIRequestContext): Promise<void> {
  const verified = await trpcMutation(request, e2eBaseURL(), 'settings.verifyIdentityForTesting', undefined);
  expect(verified.status, verified.message ?? '').toBe(200);
}

/** The signed-in user becomes a creator (again is harmless) whose identity is verified, so they may sell. */
export async function becomeVerifiedCreator(request: APIRequestContext): Promise<void> {
  const became = await trpcMutation(request, e2eBaseURL(), 'creators.become', undefined);
  expect(became.status, became.message ?? '').toBe(200);
  await verifyIdentity(request);
}

/**
 * A creator who signed up, confirmed the address and pressed Become a Creator: nothing else, so
 * not verified (they may not sell yet) unless `verified` asks for the test verification too.
 * `stem` starts the username (a time and a random number follow), `name` is the first and last name.
 */
export async function newCreator(browser: Browser, stem: string, name: [string, string], opts: { verified?: boolean } = {}): Promise<{ page: Page; username: string }> {
  const username = `${stem}${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const email = `${username}@example.test`;
  const context = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const call = (path: string, input: unknown) => trpcMutation(page.request, e2eBaseURL(), path, input);
  const signUp = await call('auth.signUp', { email, password: PASSWORD, username, firstName: name[0], surname: name[1], dateOfBirth: '1990-01-01', acceptTerms: true });
  expect(signUp.status, signUp.message ?? '').toBe(200);
  const token = new URL((await latestMailTo(email, { subject: /confirm/i })).link).searchParams.get('token');
  expect((await call('auth.confirmEmail', { token })).status).toBe(200);
  expect((await call('auth.signIn', { email, password: PASSWORD })).status).toBe(200);
  expect((await call('creators.become', undefined)).status).toBe(200);
  if (opts.verified) await verifyIdentity(page.request);
  return { page, username };
}
