import { expect, test, type Locator, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { bulkFan } from '../../scripts/seed/cast';
import { flatPng } from '../helpers/media-fixtures';
import { e2eBaseURL, imagesSettled, newPageAs, toasts, trpcMutation, trpcQuery } from './support/app';
import { becomeVerifiedCreator } from './support/new-creator';

/**
 * Issue 27 item 4 in a browser: a new creator (fan26, in no other spec) with three subscribed fans
 * (fan27-29) writes a message with a picture and a R30 price to all active subscribers, confirms,
 * and it lands locked in each fan's own thread; fan27 unlocks it through the purchase confirmation
 * and sees the picture; fan28 still sees it locked and the picture's address answers 403 for them;
 * the creator's list counts Sent 3 and Unlocked 1.
 */
const SHOTS = process.env.SHOTS_DIR ?? '/work/shots/mass';
const CREATOR = bulkFan(25);
const FANS = [bulkFan(26), bulkFan(27), bulkFan(28)];

/** What a person sees at each width, with `at` (if any) scrolled to the top under the fixed header. */
async function shoot(page: Page, name: string, at?: Locator) {
  await mkdir(SHOTS, { recursive: true });
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 800 });
    if (at) await at.evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 96));
    else await page.evaluate(() => window.scrollTo(0, 0));
    await imagesSettled(page);
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

const threadMessage = (page: Page, text: string) => page.getByRole('list', { name: 'Messages' }).getByTestId('message').filter({ has: page.getByText(text, { exact: true }) });

test('a priced picture to all active subscribers reaches three fans locked; one unlocks it, the others still cannot open it', async ({ browser }) => {
  test.setTimeout(150_000);
  const tierName = `Mass ${randomUUID().slice(0, 6)}`;
  const text = `New set ${randomUUID().slice(0, 6)}`;
  const creator = await newPageAs(browser, CREATOR.email, { at: '/settings/account/payment' });
  await becomeVerifiedCreator(creator.request);
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: tierName, price: '60', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);

  const fans = await Promise.all(FANS.map((f) => newPageAs(browser, f.email, { at: `/messages/${CREATOR.username}` })));
  const { tiers } = await trpcQuery<{ tiers: { id: string; name: string }[] }>(fans[0]!.request, 'subscriptions.subscribePage', { username: CREATOR.username });
  const tierId = tiers.find((t) => t.name === tierName)!.id;
  for (const fan of fans) {
    const subscribed = await trpcMutation(fan.request, e2eBaseURL(), 'subscriptions.subscribe', { tierId, idempotencyKey: randomUUID(), confirmedAmount: '60.00' });
    expect(subscribed.status, subscribed.message ?? '').toBe(200);
  }

  // --- the creator composes: audience with its count, text, picture, price; confirms
  await creator.goto('/create?tab=messages');
  const composer = creator.getByRole('region', { name: 'New message to subscribers' });
  await expect(composer.getByTestId('audience-count-active')).toHaveText('3 recipients');
  await expect(composer.getByLabel('All active subscribers')).toBeChecked();
  await composer.getByLabel('Message', { exact: true }).fill(text);
  await expect(composer.getByLabel('Price (optional)')).toBeDisabled();
  await composer.getByTestId('mass-file-input').setInputFiles({ name: 'set.png', mimeType: 'image/png', buffer: await flatPng(320, 240, '#3a7be0') });
  await expect(composer.getByTestId('mass-file')).toContainText('set.png');
  await expect(composer.getByTestId('mass-file')).not.toContainText('Processing', { timeout: 60_000 });
  await composer.getByLabel('Price (optional)').fill('30');
  await shoot(creator, 'composer');
  // on a phone all four Create tabs stay on one line, none of their names cut off
  await creator.setViewportSize({ width: 375, height: 800 });
  for (const tab of await creator.getByRole('tablist', { name: 'Create' }).getByRole('tab').all()) {
    expect(await tab.evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
  }
  await creator.setViewportSize({ width: 1280, height: 800 });
  await shoot(creator, 'composer-file', composer.getByTestId('mass-file'));
  await composer.getByRole('button', { name: 'Send', exact: true }).click();
  const confirm = creator.getByRole('alertdialog', { name: 'Send this message?' });
  await expect(confirm).toContainText('It goes to 3 fans');
  await confirm.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(toasts(creator).getByText('Your message is on its way.')).toBeVisible();

  // --- each fan's own thread: the text, and the picture locked at its price
  for (const fan of fans) {
    const message = threadMessage(fan, text);
    await expect(message.getByTestId('locked-attachment')).toBeVisible({ timeout: 30_000 });
    await expect(message.getByRole('button', { name: 'Unlock for R30.00' })).toBeVisible();
    await expect(message.getByTestId('message-image')).toHaveCount(0);
    // the worker's blurred preview, not a stand-in: loaded from its own address, which the fan may read
    const preview = message.getByTestId('locked-preview');
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await preview.getAttribute('src')).toMatch(/^\/media\/messages\/[0-9a-f-]{36}\/preview$/);
  }
  await shoot(fans[1]!, 'fan-locked');

  // --- one fan unlocks it through the purchase confirmation and sees the picture
  const [buyer, other] = [fans[0]!, fans[1]!];
  await threadMessage(buyer, text).getByRole('button', { name: 'Unlock for R30.00' }).click();
  const purchase = buyer.getByTestId('purchase-dialog');
  await expect(purchase.getByTestId('charged-now')).toContainText('R30.00');
  await purchase.getByRole('button', { name: 'Pay R30.00' }).dblclick();
  const image = threadMessage(buyer, text).getByTestId('message-image');
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const src = (await image.getAttribute('src'))!;
  expect((await buyer.request.get(src)).status()).toBe(200);
  await shoot(buyer, 'fan-unlocked');

  // --- the others: still locked, and the picture's address refuses them
  expect((await other.request.get(src)).status()).toBe(403);
  expect((await fans[2]!.request.get(src)).status()).toBe(403);
  await other.reload();
  await expect(threadMessage(other, text).getByRole('button', { name: 'Unlock for R30.00' })).toBeVisible();

  // --- the creator's list: Sent 3, Unlocked 1, R30 revenue
  await creator.goto('/create?tab=messages');
  const row = creator.getByTestId('mass-message').filter({ hasText: text });
  await expect(row.getByTestId('mass-sent')).toHaveText('3');
  await expect(row.getByTestId('mass-unlocked')).toHaveText('1');
  await expect(row.getByTestId('mass-revenue')).toHaveText('R30.00');
  await expect(row).toContainText('Delivered');
  await shoot(creator, 'list', creator.getByRole('region', { name: 'Messages to subscribers' }));
  const payments = await trpcQuery<{ description: string }[]>(buyer.request, 'payments.history', undefined);
  expect(payments.filter((p) => p.description.startsWith('Message unlock'))).toHaveLength(1);
  await Promise.all([creator.context().close(), ...fans.map((f) => f.context().close())]);
});
