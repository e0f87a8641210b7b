import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_TEXTS, VALIDATION } from '../../common/texts';
import { DEMO_PASSWORD } from './support/env';
import { latestMailTo } from './support/outbox';

const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts');

/** Sonner's live region: every toast is announced from here. */
const toasts = (page: Page) => page.getByRole('region', { name: /Notifications/ });
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** YYYY-MM-DD of today minus `years` (local calendar, like the date picker). */
function yearsAgo(years: number, extraDays = 0): string {
  const d = new Date();
  d.setFullYear(d.getFullYear() - years);
  d.setDate(d.getDate() + extraDays);
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60_000);
  return local.toISOString().slice(0, 10);
}

async function fillSignUp(
  page: Page,
  values: { email: string; password: string; username: string; firstName: string; surname: string; dateOfBirth: string },
) {
  await page.getByLabel('Email').fill(values.email);
  await page.getByLabel('Password').fill(values.password);
  await page.getByLabel('Username').fill(values.username);
  await page.getByLabel('First name').fill(values.firstName);
  await page.getByLabel('Surname').fill(values.surname);
  await page.getByLabel('Date of birth').fill(values.dateOfBirth);
  await page.getByLabel('I accept the Terms and Conditions').check();
}

async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  await page.goto('/auth?tab=signin');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInSucceeded.title, { exact: true })).toBeVisible();
}

test('sign up, confirm from the e-mail, sign in, see the signed-in shell, sign out', async ({ page }) => {
  const stamp = Date.now().toString(36);
  const email = `new.fan.${stamp}@example.test`;
  const username = `newfan${stamp}`;

  await page.goto('/auth?tab=signup');
  await expect(page.getByRole('tab', { name: 'Sign Up' })).toHaveAttribute('aria-selected', 'true');
  await fillSignUp(page, {
    email,
    password: 'a-good-password',
    // typed with spaces and capitals: the field keeps it lower-case without whitespace
    username: `New Fan ${stamp}`,
    firstName: 'New',
    surname: 'Fan',
    dateOfBirth: '1994-06-15',
  });
  await expect(page.getByLabel('Username')).toHaveValue(username);
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

  await expect(toasts(page).getByText(AUTH_TEXTS.signUpSucceeded.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(AUTH_TEXTS.signUpSucceeded.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  // not signed in yet: the visitor shell
  await expect(mainNav(page).getByRole('link', { name: 'Sign In' })).toBeVisible();

  // signing in before confirming is refused with the server's explanation
  await page.goto('/auth?tab=signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInFailed.title, { exact: true })).toBeVisible();

  const mail = await latestMailTo(email, { subject: /confirm/i });
  expect(mail.link).toContain('/auth/confirm?token=');
  await page.goto(mail.link);
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.emailConfirmed.title })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/auth\?tab=signin/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');

  await page.getByLabel('Email').fill(email.toUpperCase()); // e-mail is trimmed and lower-cased
  await page.getByLabel('Password').fill('a-good-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInSucceeded.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInSucceeded.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);

  const nav = mainNav(page);
  await expect(nav.getByRole('link', { name: 'Messages' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', `/${username}`);
  await expect(nav.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Explore' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Create' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Sign In' })).toHaveCount(0);
  // the landing hero is for visitors only
  await expect(page.getByRole('link', { name: 'Sign Up Free' })).toHaveCount(0);

  // a session already exists: /auth sends the user on to /
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);

  await nav.getByRole('button', { name: 'Sign out' }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signedOut.title, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(nav.getByRole('link', { name: 'Sign In' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Messages' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Sign Up Free' })).toBeVisible();
});

test('a demo account signs in; wrong credentials are refused', async ({ page }) => {
  await page.goto('/auth');
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');
  await page.getByLabel('Email').fill('admin@demo.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInFailed.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(AUTH_TEXTS.invalidCredentials, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/auth/);

  await signIn(page, 'admin@demo.test');
  await expect(page).toHaveURL(/\/$/);
  await expect(mainNav(page).getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/admin');
});

test.describe('auth validation', () => {
  test('an empty sign-up lists every required field', async ({ page }) => {
    await page.goto('/auth?tab=signup');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

    const region = toasts(page);
    await expect(region.getByText(VALIDATION.validationErrorTitle)).toBeVisible();
    for (const message of [
      VALIDATION.emailRequired,
      VALIDATION.passwordTooShort,
      VALIDATION.usernameRequired,
      VALIDATION.firstNameRequired,
      VALIDATION.surnameRequired,
      VALIDATION.dateOfBirthRequired,
      VALIDATION.termsRequired,
    ]) {
      await expect(region.getByText(message)).toBeVisible();
    }
    // and beside each field, announced as its description
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(VALIDATION.emailRequired);
    await expect(page.getByLabel('Username')).toHaveAccessibleDescription(VALIDATION.usernameRequired);
    await expect(page.getByLabel('First name')).toHaveAccessibleDescription(VALIDATION.firstNameRequired);
    await expect(page.getByLabel('Surname')).toHaveAccessibleDescription(VALIDATION.surnameRequired);
    await expect(page.getByLabel('Date of birth')).toHaveAccessibleDescription(VALIDATION.dateOfBirthRequired);
    await expect(page.getByLabel('I accept the Terms and Conditions')).toHaveAccessibleDescription(
      VALIDATION.termsRequired,
    );
    await expect(page.getByLabel('Email')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Email')).toBeFocused();
  });

  test('under 18 is refused', async ({ page }) => {
    await page.goto('/auth?tab=signup');
    await fillSignUp(page, {
      email: `young.${Date.now().toString(36)}@example.test`,
      password: 'a-good-password',
      username: `young${Date.now().toString(36)}`,
      firstName: 'Young',
      surname: 'Person',
      dateOfBirth: yearsAgo(18, 1), // turns 18 tomorrow
    });
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(toasts(page).getByText(VALIDATION.underAge, { exact: true })).toBeVisible();
    await expect(page.getByLabel('Date of birth')).toHaveAccessibleDescription(VALIDATION.underAge);
    await expect(page).toHaveURL(/tab=signup/);
  });

  test('a short password is refused on both tabs', async ({ page }) => {
    await page.goto('/auth?tab=signup');
    await fillSignUp(page, {
      email: `short.${Date.now().toString(36)}@example.test`,
      password: '12345',
      username: `short${Date.now().toString(36)}`,
      firstName: 'Short',
      surname: 'Password',
      dateOfBirth: '1990-01-01',
    });
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(toasts(page).getByText(VALIDATION.passwordTooShort, { exact: true })).toBeVisible();
    await expect(page.getByLabel('Password')).toHaveAccessibleDescription(VALIDATION.passwordTooShort);

    await page.getByRole('tab', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/tab=signin/);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Sign In', exact: true }).click();
    await expect(page.getByLabel('Email')).toHaveAccessibleDescription(VALIDATION.invalidEmail);
    await expect(page.getByLabel('Password')).toHaveAccessibleDescription(VALIDATION.passwordTooShort);
  });

  test('an e-mail that already has an account', async ({ page }) => {
    await page.goto('/auth?tab=signup');
    await fillSignUp(page, {
      email: 'admin@demo.test',
      password: 'a-good-password',
      username: `dup${Date.now().toString(36)}`,
      firstName: 'Dup',
      surname: 'Licate',
      dateOfBirth: '1990-01-01',
    });
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await expect(toasts(page).getByText(AUTH_TEXTS.accountExists.title, { exact: true })).toBeVisible();
    await expect(toasts(page).getByText(AUTH_TEXTS.accountExists.description, { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/tab=signup/);
  });
});

test('forgot password always answers with the neutral text', async ({ page }) => {
  await page.goto('/auth');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/auth\/forgot-password/);
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
  await page.getByLabel('Email').fill(`nobody.${Date.now().toString(36)}@example.test`);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('heading', { name: AUTH_TEXTS.resetRequested.title })).toBeVisible();
  await expect(page.getByText(AUTH_TEXTS.resetRequested.description)).toBeVisible();
});

test('a lost session on a page other than /, /auth and /explore: toast for 5 s, then /auth, then back', async ({
  browser,
}) => {
  // zoe is used by no other spec: signing out her other sessions disturbs nobody
  const here = await browser.newContext();
  const elsewhere = await browser.newContext();
  const page = await here.newPage();
  const other = await elsewhere.newPage();
  await signIn(page, 'zoe@demo.test');
  await signIn(other, 'zoe@demo.test');

  await page.goto('/terms');
  await expect(mainNav(page).getByRole('link', { name: 'Messages' })).toBeVisible();

  // the other browser ends every other session; the server tells this one over its socket
  const status = await other.evaluate(async () => {
    const res = await fetch('/trpc/auth.signOut', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ json: { scope: 'others' } }),
    });
    return res.status;
  });
  expect(status).toBe(200);

  await expect(toasts(page).getByText(AUTH_TEXTS.sessionExpired.title, { exact: true })).toBeVisible();
  await expect(toasts(page).getByText(AUTH_TEXTS.sessionExpired.description, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/terms/); // still here during the 5 seconds
  await expect(page).toHaveURL(/\/auth\?tab=signin/, { timeout: 10_000 });
  await expect(page.getByRole('tab', { name: 'Sign In' })).toHaveAttribute('aria-selected', 'true');

  // signing in again returns to the page the session was lost on
  await page.getByLabel('Email').fill('zoe@demo.test');
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page).toHaveURL(/\/terms$/);

  await here.close();
  await elsewhere.close();
});

test('screenshots of /auth', async ({ page }) => {
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.goto('/auth?tab=signin');
    await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toBeVisible();
    await page.screenshot({ path: path.join(artifacts, `auth-signin-${width}.png`), fullPage: true });
    await page.goto('/auth?tab=signup');
    await expect(page.getByRole('button', { name: 'Sign Up', exact: true })).toBeVisible();
    await page.screenshot({ path: path.join(artifacts, `auth-signup-${width}.png`), fullPage: true });
  }
});
