import { expect, type Browser, type Page } from '@playwright/test';
import { e2eBaseURL, trpcMutation } from './app';
import { latestMailTo } from './outbox';

const PASSWORD = 'a-good-password';

/**
 * A creator who signed up, confirmed the address and pressed Become a Creator: nothing else.
 * `stem` starts the username (a time and a random number follow), `name` is the first and last name.
 */
export async function newCreator(browser: Browser, stem: string, name: [string, string]): Promise<{ page: Page; username: string }> {
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
  return { page, username };
}
