import { decodeBase32IgnorePadding } from '@oslojs/encoding';
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCOUNT_TEXTS, DATA_EXPORT_TEXTS, SECURITY_TEXTS } from '../../common/security';
import { AUTH_TEXTS } from '../../common/texts';
import { EARNINGS_TEXTS } from '../../common/earnings-texts';
import { currentTotpCode } from '../../server/auth/two-factor';
import { e2eBaseURL, signIn, toasts, trpcMutation } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';
import { latestMailTo } from './support/outbox';
import { withDatabase } from './support/retry-reset';

/**
 * Issue 13, part B, one journey of a new account (demo accounts stay untouched): enrol two-factor,
 * sign out and sign in with a code; sign out another browser, which is signed out live; download
 * the data; delete the account, after which signing in fails.
 */

const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');
const PASSWORD = 'journey-password-1';

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('two-factor, live sign-out of another browser, download my data, delete the account', async ({ browser }) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36);
  const email = `sec-${stamp}@example.test`;
  const context = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();

  // a confirmed account, made through the API (sign-up has its own spec)
  const signUp = await trpcMutation(context.request, e2eBaseURL(), 'auth.signUp', {
    email,
    password: PASSWORD,
    username: `sec${stamp}`,
    firstName: 'Sec',
    surname: 'Urity',
    dateOfBirth: '1990-01-01',
    acceptTerms: true,
  });
  expect(signUp.status).toBe(200);
  const token = new URL((await latestMailTo(email, { subject: /confirm/i })).link).searchParams.get('token');
  expect((await trpcMutation(context.request, e2eBaseURL(), 'auth.confirmEmail', { token })).status).toBe(200);
  await signIn(page, email, PASSWORD);

  // enrol: QR code, the key, the first code; the recovery codes are shown once
  await page.goto('/settings/security');
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  const key = decodeBase32IgnorePadding((await page.getByTestId('totp-secret').textContent())!.trim());
  await page.getByLabel('Code from the app').fill(currentTotpCode(key));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(toasts(page).getByText(SECURITY_TEXTS.twoFactorEnabled.title)).toBeVisible();
  const codes = await page.getByTestId('recovery-codes').getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await shoot(page, 'settings-security-recovery-codes');
  await page.getByRole('button', { name: 'I saved them' }).click();
  await expect(page.getByText('10 recovery codes left')).toBeVisible();

  // sign out, then sign in: the password, then the code (the next one: a code works once)
  expect((await trpcMutation(context.request, e2eBaseURL(), 'auth.signOut', { scope: 'local' })).status).toBe(200);
  await page.goto('/auth?tab=signin');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByLabel('Authentication code').fill(currentTotpCode(key, Date.now() + 30_000));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(toasts(page).getByText(AUTH_TEXTS.signInSucceeded.title, { exact: true })).toBeVisible();

  // a second browser, signed in with a recovery code, waits on a signed-in screen
  const other = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width: 1280, height: 800 } });
  expect((await trpcMutation(other.request, e2eBaseURL(), 'auth.signIn', { email, password: PASSWORD })).status).toBe(200);
  expect((await trpcMutation(other.request, e2eBaseURL(), 'auth.verifyTwoFactor', { code: codes[0] })).status).toBe(200);
  const otherPage = await other.newPage();
  await otherPage.goto('/settings/security');
  await expect(otherPage.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();

  // this browser signs the other one out: it is told at once and sent to sign in
  await page.goto('/settings/security');
  const rows = page.getByTestId('session-row');
  await expect(rows).toHaveCount(2);
  await shoot(page, 'settings-security');
  await rows.filter({ hasNotText: 'This device' }).getByRole('button', { name: /^Sign out/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Sign out', exact: true }).click();
  await expect(toasts(page).getByText(SECURITY_TEXTS.sessionSignedOut.title)).toBeVisible();
  await expect(toasts(otherPage).getByText(AUTH_TEXTS.sessionExpired.title)).toBeVisible();
  await expect(rows).toHaveCount(1);

  // download my data: queued, built by the worker, then a zip for this account only
  await page.goto('/settings/account/management');
  await expect(page.getByRole('heading', { name: ACCOUNT_TEXTS.pageTitle, level: 1 })).toBeVisible();
  // the screen says what the zip holds: the media as published, the uploads themselves are not kept
  await expect(page.getByText(DATA_EXPORT_TEXTS.description)).toBeVisible();
  await page.getByRole('button', { name: 'Download my data' }).click();
  await expect(toasts(page).getByText(SECURITY_TEXTS.exportRequested.title)).toBeVisible();
  const link = page.getByRole('link', { name: 'Download zip' });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toMatch(/^my-data-sec.*\.zip$/);
  await shoot(page, 'settings-account-management');

  // a creator with R240.00 available and no payout account (issue 26): the dialog says the
  // balance cannot be paid out and stays with the platform
  await becomeVerifiedCreator(context.request);
  expect((await trpcMutation(context.request, e2eBaseURL(), 'tiers.create', { name: 'Gold', price: '300', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);
  await withDatabase((db) =>
    db.query(
      `WITH me AS (SELECT id FROM users WHERE email = $1),
            paid AS (INSERT INTO payments (user_id, tier_id, creator_id, description, amount_cents, provider, status)
                     SELECT me.id, t.id, me.id, 'Gold', 30000, 'builtin', 'succeeded' FROM me JOIN subscription_tiers t ON t.creator_id = me.id RETURNING id, creator_id),
            mine AS (INSERT INTO ledger_accounts (kind, owner_id) SELECT 'creator_available', me.id FROM me
                     ON CONFLICT (owner_id, kind) WHERE owner_id IS NOT NULL DO UPDATE SET kind = excluded.kind RETURNING id, kind),
            cash AS (INSERT INTO ledger_accounts (code, kind, provider) VALUES ('provider_cash:builtin', 'provider_cash', 'builtin')
                     ON CONFLICT (code) DO UPDATE SET code = excluded.code RETURNING id, kind),
            j AS (INSERT INTO journal_entries (kind, key, payment_id, occurred_at) SELECT 'charge', 'payment-' || paid.id, paid.id, now() FROM paid RETURNING id)
       INSERT INTO journal_lines (journal_id, account_id, currency, kind, amount_cents, available_at, occurred_at)
       SELECT j.id, a.id, 'ZAR', 'charge', CASE a.kind WHEN 'provider_cash' THEN 30000 WHEN 'platform_revenue' THEN -6000 ELSE -24000 END, NULL, now()
       FROM j, (SELECT id, kind FROM mine UNION ALL SELECT id, kind FROM cash UNION ALL SELECT id, kind FROM ledger_accounts WHERE code = 'platform_revenue') a`,
      [email],
    ),
  );
  await page.reload();

  // delete the account: the dialog names what goes and asks for the password and a code
  await page.getByRole('button', { name: 'Delete Account' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('deletion-balance-note')).toHaveText(EARNINGS_TEXTS.deletionForfeit('R240.00'));
  await dialog.getByLabel('Your password').fill(PASSWORD);
  await dialog.getByLabel('Two-factor code').fill(codes[1]!);
  await page.screenshot({ path: path.join(screens, 'settings-account-delete-dialog-1280.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: path.join(screens, 'settings-account-delete-dialog-375.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: 'Delete Account' }).click();
  await expect(toasts(page).getByText(ACCOUNT_TEXTS.accountDeleted, { exact: true })).toBeVisible();
  await expect(page).toHaveURL(`${e2eBaseURL()}/`);

  const again = await trpcMutation(context.request, e2eBaseURL(), 'auth.signIn', { email, password: PASSWORD });
  expect(again.status).toBe(401);
  await other.close();
  await context.close();
});
