import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFUND_TEXTS } from '../../common/payment-texts';
import { imagesSettled, newPageAs, toasts } from './support/app';

/**
 * Issue 22 §4 in a browser: an admin finds a fan's payment on /admin/payments and refunds part of
 * it (the dialog asks first, with the amount); the fan's Payment History then shows the charge as
 * Partly refunded and the refund as a row of its own. Uses lena's seeded kai payments, which no
 * other spec reads; a partial refund leaves her subscription (and kai's counts) as they were.
 */
const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an admin refunds part of a payment after confirming the amount; the fan sees Partly refunded and the refund', async ({ browser }) => {
  const fan = await newPageAs(browser, 'lena', { at: '/admin/payments?q=lena' });
  await expect(fan.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await fan.context().close();

  const admin = await newPageAs(browser, 'admin', { at: '/admin/payments' });
  await admin.getByLabel('Fan, creator or payment reference').fill('lena');
  await admin.getByRole('button', { name: 'Search' }).click();
  await expect(admin).toHaveURL(/q=lena/);
  const card = admin.getByTestId('admin-payment').first();
  await expect(card).toBeVisible();
  await expect(card.getByTestId('payment-label')).toHaveText('Paid');
  await shoot(admin, 'admin-payments');

  await card.getByRole('button', { name: 'Refund' }).click();
  const dialog = admin.getByRole('alertdialog');
  await expect(dialog.getByText(/ends the subscription it paid for/)).toBeVisible();
  const amount = dialog.getByLabel('Amount (R)');
  // more than is left: the form says so and nothing is sent
  await amount.fill('abc');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog.getByText(REFUND_TEXTS.amountInvalid)).toBeVisible();
  await amount.fill('5');
  await shoot(admin, 'admin-refund-dialog');
  await dialog.getByRole('button', { name: 'Refund R5.00' }).click();
  await expect(toasts(admin).getByText(REFUND_TEXTS.refundQueued)).toBeVisible();

  // the job records it (built-in provider): the card says so after a reload
  await expect(async () => {
    await admin.reload();
    await expect(admin.getByTestId('admin-payment').first().getByTestId('payment-label')).toHaveText('Partly refunded', { timeout: 1_000 });
  }).toPass({ timeout: 20_000 });
  await admin.context().close();

  const history = await newPageAs(browser, 'lena', { at: '/settings/account/payment' });
  const rows = history.getByTestId('payment-row');
  await expect(rows.filter({ hasText: '\u2212R5.00' }).getByTestId('payment-label')).toHaveText('Refund');
  await expect(rows.getByTestId('payment-label').filter({ hasText: 'Partly refunded' })).toHaveCount(1);
  await shoot(history, 'payment-history-refund');
  await history.context().close();
});
