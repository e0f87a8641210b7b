import { expect, test } from '@playwright/test';
import { MEDIA_SETTINGS_TEXTS } from '../../common/media-settings-texts';
import { toasts } from './support/app';
import { newCreator } from './support/new-creator';
import { shootWidths } from './support/screens';

/**
 * Issue 49 item 4: beside the watermark in Media settings, a creator turns on "Mark paid pictures
 * with the buyer"; the save is confirmed and the choice is still there after a reload.
 */
test('a creator turns on the buyer mark for paid pictures, and it stays on', async ({ browser }) => {
  const { page } = await newCreator(browser, 'mark', ['Mark', 'Maker']);
  await page.goto('/settings/media');
  const toggle = page.getByRole('switch', { name: 'Mark paid pictures with the buyer' });
  await expect(toggle).toBeVisible();
  await expect(toggle).not.toBeChecked();
  // beside the watermark's own switch, which it leaves alone
  await expect(page.getByRole('switch', { name: 'Watermark', exact: true })).toBeChecked();

  await toggle.click();
  await expect(toggle).toBeChecked();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(toasts(page).getByText(MEDIA_SETTINGS_TEXTS.saved)).toBeVisible();

  await page.reload();
  await expect(page.getByRole('switch', { name: 'Mark paid pictures with the buyer' })).toBeChecked();
  await expect(page.getByRole('switch', { name: 'Watermark', exact: true })).toBeChecked();
  await shootWidths(page, 'settings-media-buyer-mark');
  await page.context().close();
});
