import { expect, test } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_TEXTS } from '../../common/texts';
import { imagesSettled, newPageAs } from './support/app';

/**
 * Issue 22 item 6: the tier form says, beside the price, what a price change does to a tier's
 * subscribers; a new tier (nobody subscribed) does not. Read-only: the form is opened and left.
 */
const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');

test('editing a tier with subscribers says a new price is for new fans and a lower one reaches everyone at renewal', async ({ browser }) => {
  const maya = await newPageAs(browser, 'maya');
  await maya.goto('/create?tab=tiers');
  const reader = maya.getByRole('list', { name: 'Your subscription tiers' }).getByRole('listitem', { name: 'Reader' });
  await expect(reader.getByTestId('tier-subscribers')).not.toHaveText('0 active subscribers');
  await reader.getByRole('button', { name: 'Edit Reader' }).click();
  const form = maya.getByRole('form', { name: 'Edit Reader' });
  await expect(form.getByRole('note')).toHaveText(BILLING_TEXTS.priceChangeNote);

  // too much is refused in the form, in the schema's words
  await form.getByLabel('Price (R)').fill('100000.01');
  await form.getByRole('button', { name: 'Save Changes' }).click();
  await expect(form.getByText(BILLING_TEXTS.priceTooHigh, { exact: true })).toBeVisible();
  await form.getByLabel('Price (R)').fill('49.00');

  for (const width of [1280, 375]) {
    await maya.setViewportSize({ width, height: 800 });
    await imagesSettled(maya);
    await maya.screenshot({ path: path.join(screens, `tier-price-note-${width}.png`), fullPage: true });
  }
  await maya.setViewportSize({ width: 1280, height: 800 });
  await form.getByRole('button', { name: 'Cancel' }).click();

  // a new tier has no subscribers: nothing to say
  await maya.getByRole('button', { name: 'Add Tier' }).click();
  const fresh = maya.getByRole('form', { name: 'New subscription tier' });
  await expect(fresh.getByLabel('Price (R)')).toBeVisible();
  await expect(fresh.getByRole('note')).toHaveCount(0);
});
