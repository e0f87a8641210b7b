import { expect, test, type Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { bulkFan } from '../../scripts/seed/cast';
import { pdfText } from '../helpers/pdf-text';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { seriousViolations, violationLines, WCAG_21_AA } from './support/axe';
import { withDatabase } from './support/retry-reset';
import { shootWidths } from './support/screens';

/**
 * Issue 47 item 6 in a browser, with the built-in provider: a fan (fan10, bulkFan(9), in no other
 * spec) adds two test cards on Settings > Payment, makes the second the default, tips kai R311,
 * opens the purchase's numbered receipt from Payment History and downloads its PDF (what, from
 * whom, the amount, the number); an admin refunds it and the receipt and its PDF show the refund;
 * someone else (fan18, bulkFan(17)) asking for that PDF gets 404; the fan removes the default card
 * through the confirm dialog and the other becomes the default.
 */
const FAN = bulkFan(9);
const OTHER = bulkFan(17);

/** axe finds nothing serious or critical on the screen at 1280 and at 375 px. */
async function accessibleAtBothWidths(page: Page) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    expect(violationLines(await seriousViolations(page, WCAG_21_AA)), `${page.url()} at ${width}px`).toEqual([]);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a fan keeps test cards, opens and downloads a numbered receipt, sees its refund, and removes a card', async ({ browser }) => {
  test.setTimeout(150_000);
  // a failed earlier attempt may have left cards in this fan's wallet
  await withDatabase((db) => db.query('DELETE FROM test_cards WHERE user_id = (SELECT id FROM users WHERE email = $1)', [FAN.email]));
  const [fan, other, admin] = await Promise.all([newPageAs(browser, FAN.email), newPageAs(browser, OTHER.email), newPageAs(browser, 'admin')]);

  // --- the wallet: empty, then two test cards, the second made the default
  await fan.goto('/settings/account/payment');
  const wallet = fan.getByTestId('wallet');
  await expect(wallet.getByRole('heading', { name: 'No Payment Methods Added' })).toBeVisible();
  await expect(wallet).not.toContainText('No card is stored with us');
  await expect(wallet.getByLabel('Test card')).toHaveValue('visa');
  await wallet.getByRole('button', { name: 'Add test card' }).click();
  await expect(toasts(fan).getByText('Test card added')).toBeVisible();
  const cards = wallet.getByRole('list', { name: 'Cards' }).getByRole('listitem');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Visa ending in 4242');
  await expect(cards.first()).toContainText('Test card');
  await expect(cards.first()).toContainText('Default');

  await wallet.getByLabel('Test card').selectOption('mastercard');
  await wallet.getByRole('button', { name: 'Add test card' }).click();
  await expect(cards).toHaveCount(2);
  const mastercard = cards.filter({ hasText: 'Mastercard ending in 4444' });
  await expect(mastercard).not.toContainText('Default');
  await mastercard.getByRole('button', { name: 'Make default: Mastercard ending in 4444' }).click();
  await expect(toasts(fan).getByText('Default card changed')).toBeVisible();
  await expect(mastercard).toContainText('Default');
  await expect(cards.filter({ hasText: 'Visa ending in 4242' })).not.toContainText('Default');
  // the default is listed first
  await expect(cards.first()).toContainText('Mastercard ending in 4444');

  // --- a purchase: a R311 tip to kai, through the one confirmation
  await fan.goto('/kai');
  await fan.getByRole('button', { name: 'Tip Kai Jensen' }).click();
  const tip = fan.getByTestId('tip-dialog');
  await tip.getByLabel('Amount (R)').fill('311');
  await tip.getByRole('button', { name: 'Continue with R311.00' }).click();
  await fan.getByTestId('purchase-dialog').getByRole('button', { name: 'Pay R311.00' }).click();
  await expect(toasts(fan).getByText('You tipped Kai Jensen R311.00')).toBeVisible();

  // --- Payment History links it to its receipt
  await fan.goto('/settings/account/payment');
  const charge = fan.getByRole('list', { name: 'Payments' }).getByRole('listitem').filter({ hasText: 'Tip — Kai Jensen' }).first();
  const receiptLink = charge.getByRole('link', { name: /^Receipt CH-\d{6,}$/ });
  const number = (await receiptLink.innerText()).replace(/^Receipt /, '');
  await expect(fan.getByTestId('wallet')).toBeVisible();
  await shootWidths(fan, 'wallet-payment-screen');
  await accessibleAtBothWidths(fan);
  await receiptLink.click();

  const receipt = fan.getByTestId('receipt');
  await expect(fan.getByRole('heading', { level: 1, name: 'Receipt' })).toBeVisible();
  await expect(receipt.getByRole('heading', { name: number })).toBeVisible();
  await expect(receipt).toContainText('Tip — Kai Jensen');
  await expect(receipt.getByRole('link', { name: 'Kai Jensen @kai' })).toBeVisible();
  await expect(receipt).toContainText('Test payment: no card was charged');
  await expect(receipt.getByTestId('receipt-amounts')).toContainText('R311.00');
  await expect(receipt.getByTestId('payment-label')).toHaveText('Paid');
  await shootWidths(fan, 'wallet-receipt');
  await accessibleAtBothWidths(fan);

  const pdfOf = async () => {
    const [download] = await Promise.all([fan.waitForEvent('download'), receipt.getByRole('link', { name: 'Download PDF' }).click()]);
    expect(download.suggestedFilename()).toBe(`receipt-${number}.pdf`);
    return pdfText(await readFile((await download.path())!));
  };
  const pdf = await pdfOf();
  expect(pdf).toContain(number);
  expect(pdf).toContain('Tip — Kai Jensen');
  expect(pdf).toContain('Kai Jensen (@kai)');
  expect(pdf).toContain('R311.00');

  // --- someone else asking for this receipt learns nothing
  const paymentId = new URL(fan.url()).pathname.split('/').pop()!;
  expect((await other.request.get(`/receipts/${paymentId}/pdf`)).status()).toBe(404);

  // --- refunded: the receipt and its PDF show it
  expect((await trpcMutation(admin.request, e2eBaseURL(), 'payments.adminRefund', { paymentId, amount: '311', idempotencyKey: crypto.randomUUID() })).status).toBe(200);
  await expect.poll(async () => (await trpcQuery<{ label: string }>(fan.request, 'payments.receipt', { paymentId })).label, { timeout: 30_000 }).toBe('refunded');
  await fan.reload();
  await expect(receipt.getByTestId('payment-label')).toHaveText('Refunded');
  await expect(receipt.getByTestId('receipt-amounts')).toContainText('Refund');
  await expect(receipt.getByTestId('receipt-amounts')).toContainText('−R311.00');
  await expect(receipt.getByTestId('receipt-amounts')).toContainText('Total after refunds');
  await shootWidths(fan, 'wallet-receipt-refunded');
  const refundedPdf = await pdfOf();
  expect(refundedPdf).toContain(number);
  expect(refundedPdf).toContain('Refunded');
  expect(refundedPdf).toMatch(/Refund\n-R311\.00 on /);
  expect(refundedPdf).toContain('Total after refunds\nR0.00');

  // --- removing the default card asks first; the other card becomes the default
  await fan.goto('/settings/account/payment');
  await mastercard.getByRole('button', { name: 'Remove: Mastercard ending in 4444' }).click();
  const confirm = fan.getByRole('alertdialog');
  await expect(confirm.getByRole('heading', { name: 'Remove this card?' })).toBeVisible();
  await expect(confirm).toContainText('Mastercard ending in 4444 will be removed from your wallet, and Visa ending in 4242 becomes your default card.');
  await shootWidths(fan, 'wallet-remove-card');
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await expect(toasts(fan).getByText('Card removed')).toBeVisible();
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Visa ending in 4242');
  await expect(cards.first()).toContainText('Default');

  await Promise.all([fan.context().close(), other.context().close(), admin.context().close()]);
});
