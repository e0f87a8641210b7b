import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bulkFan } from '../../scripts/seed/cast';
import { findPost, imagesSettled, newPageAs, toasts, trpcQuery } from './support/app';

/**
 * Issue 27 item 1 in a browser: fan20 (in no other spec) tips kai from one of his posts with a
 * message; kai has the chat with fan20 open and sees the tip there, live, and as a toast; the
 * fan's payment history lists it as a tip.
 */

const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');
const POST = 'Level sketch';
const FAN = bulkFan(19); // fan20@demo.test

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test("a fan tips a creator from a post (confirmed, double-pressed, charged once) and the creator's open chat shows it live", async ({ browser }) => {
  test.setTimeout(90_000);
  const [kai, fan] = await Promise.all([newPageAs(browser, 'kai', { at: `/messages/${FAN.username}` }), newPageAs(browser, FAN.email)]);
  const post = await findPost(fan.request, POST);
  await expect(kai.getByRole('heading', { level: 1, name: FAN.displayName })).toBeVisible();

  await fan.goto(`/post/${post.id}`);
  await fan.getByRole('button', { name: 'Tip Kai Jensen' }).click();
  const dialog = fan.getByTestId('tip-dialog');
  await expect(dialog.getByRole('button', { name: 'R50', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await dialog.getByRole('button', { name: 'R100', exact: true }).click();
  await dialog.getByLabel('Message (optional)').fill('Great sketch!');
  await shoot(fan, 'tip-dialog');
  // out of range: the form says so and goes no further
  await dialog.getByLabel('Amount (R)').fill('5');
  await dialog.getByRole('button', { name: 'Continue', exact: true }).click();
  await expect(dialog.getByText('Enter an amount from R10 to R5,000.')).toBeVisible();
  await dialog.getByLabel('Amount (R)').fill('75');
  await dialog.getByRole('button', { name: 'Continue with R75.00' }).click();

  const confirm = fan.getByTestId('purchase-dialog');
  await expect(confirm.getByTestId('charged-now')).toContainText('R75.00');
  await expect(confirm.getByTestId('provider-note')).toBeVisible();
  await shoot(fan, 'tip-confirm');
  await confirm.getByRole('button', { name: 'Pay R75.00' }).dblclick();
  await expect(toasts(fan).getByText('You tipped Kai Jensen R75.00')).toBeVisible();

  // the creator's open chat with this fan, live
  await expect(kai.getByTestId('tip-line')).toHaveCount(1);
  await expect(kai.getByTestId('tip-line')).toContainText('tipped you R75.00');
  await expect(kai.getByTestId('tip-line')).toContainText('Great sketch!');
  await expect(toasts(kai).getByText(/tipped you R75\.00/)).toBeVisible();

  // one charge, in the fan's history
  const rows = await trpcQuery<{ description: string; amount: string }[]>(fan.request, 'payments.history', undefined);
  expect(rows.filter((r) => r.description === 'Tip — Kai Jensen')).toHaveLength(1);
  await Promise.all([kai.context().close(), fan.context().close()]);
});
