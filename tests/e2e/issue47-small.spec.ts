import { expect, test, type ConsoleMessage, type Locator, type Page } from '@playwright/test';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MULTI_FILE_TEXTS } from '../../common/multi-file-texts';
import { POST_EDIT_TEXTS } from '../../common/post-edit-texts';
import { SCHEDULE_TEXTS } from '../../common/schedule';
import { SETTINGS_TEXTS } from '../../common/settings-texts';
import { POST_TEXTS } from '../../common/texts';
import { HASHTAGS_HINT } from '../../common/uploads';
import { flatPng } from '../helpers/media-fixtures';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, newPageAs, toasts, trpcMutation } from './support/app';
import { fileInput, fixtureDir, form, publishButton, writeFixture } from './support/uploads';

/**
 * The smaller items of issue 47: the admin overview and its menu entry, the queue dashboard with
 * nothing refused by the page's policy, the schedule panel closing after 'Post scheduled', one
 * upload toast at a time, notification switches that save as they are flipped, one main landmark
 * and no 'Mark all as read' with nothing unread, one hashtag hint, no zero counts on the subscribe
 * page, and the phone layouts (nothing wider than the screen, nothing cut or overlapping).
 */

const SCREENS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');

async function shoot(page: Page, name: string, fullPage = true) {
  await mkdir(SCREENS, { recursive: true });
  const before = page.viewportSize() ?? { width: 1280, height: 800 };
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: width === 1280 ? 800 : 812 });
    // the layout settles (a breakpoint's lazy menu, fonts) before the picture
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(SCREENS, `${name}-${width}.png`), fullPage });
  }
  await page.setViewportSize(before);
}

/** Nothing wider than a 375 px screen (a clipped table or a cut heading shows up here). */
async function fitsPhone(page: Page) {
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

/** The heading wraps, and its verified tick sits on the line of its last word, just after it. */
async function badgeFollowsLastWord(heading: Locator) {
  const { lines, word, badge } = await heading.evaluate((h) => {
    const all = document.createRange();
    all.selectNodeContents(h);
    const tops = new Set([...all.getClientRects()].map((r) => Math.round(r.top)));
    const glued = h.querySelector('.whitespace-nowrap')!;
    const last = document.createRange();
    last.selectNode(glued.firstChild!);
    const w = last.getBoundingClientRect();
    const b = h.querySelector('[aria-label="Verified"]')!.getBoundingClientRect();
    return { lines: tops.size, word: { right: w.right, top: w.top, bottom: w.bottom }, badge: { left: b.left, top: b.top, bottom: b.bottom } };
  });
  expect(lines).toBeGreaterThan(1);
  expect(badge.top).toBeLessThan(word.bottom);
  expect(badge.bottom).toBeGreaterThan(word.top);
  expect(badge.left - word.right).toBeGreaterThanOrEqual(0);
  expect(badge.left - word.right).toBeLessThan(16);
}

const inAnHour = () => {
  const at = new Date(Date.now() + 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`, time: `${pad(at.getHours())}:${pad(at.getMinutes())}` };
};

test('admins find /admin from the menu, with links to payments, reports and queues; the queue dashboard loads with nothing refused', async ({ browser }) => {
  const fan = await newPageAs(browser, 'fan25', { at: '/' });
  await expect(fan.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(fan.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await fan.goto('/admin');
  await expect(fan.getByRole('heading', { name: 'Admins only' })).toBeVisible();
  await fan.context().close();

  const admin = await newPageAs(browser, 'admin', { at: '/' });
  await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(admin).toHaveURL(/\/admin\/?$/);
  await expect(admin.getByRole('heading', { level: 1, name: 'Admin' })).toBeVisible();
  const screens = admin.getByRole('list', { name: 'Admin screens' });
  await expect(screens.getByRole('link', { name: /Payments/ })).toHaveAttribute('href', '/admin/payments');
  await expect(screens.getByRole('link', { name: /Reports/ })).toHaveAttribute('href', '/admin/reports');
  await expect(screens.getByRole('link', { name: /Queues/ })).toHaveAttribute('href', '/admin/queues');
  await shoot(admin, 'admin-overview');

  // on a phone, the user menu has the entry
  await admin.setViewportSize({ width: 375, height: 812 });
  await admin.getByRole('banner').getByRole('button', { name: /admin/i }).click();
  await expect(admin.getByRole('menuitem', { name: 'Admin' })).toBeVisible();
  await admin.screenshot({ path: path.join(SCREENS, 'admin-mobile-menu-375.png') });
  await admin.keyboard.press('Escape');
  await fitsPhone(admin);

  // the payments table scrolls inside its frame on a phone: the page itself does not widen
  await admin.goto('/admin/payments');
  await expect(admin.getByRole('table')).toBeVisible();
  await fitsPhone(admin);
  // the table scrolls inside its frame (it does not look clipped: its cells keep one line, a hint says so)
  const frame = admin.getByRole('region', { name: 'Fees, refunds and payouts per month' });
  expect(await frame.evaluate((f) => f.scrollWidth > f.clientWidth)).toBe(true);
  await expect(admin.getByText('Swipe the table sideways for every column.')).toBeVisible();
  const rowHeights = await admin.getByRole('table').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getBoundingClientRect().height));
  expect(Math.max(...rowHeights)).toBeLessThan(48);
  await shoot(admin, 'admin-payments');
  await admin.setViewportSize({ width: 1280, height: 800 });

  // the queue dashboard: no console error (its font stylesheet was refused by the CSP)
  const errors: string[] = [];
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') errors.push(message.text());
  };
  admin.on('console', onConsole);
  const requests: string[] = [];
  admin.on('request', (request) => requests.push(request.url()));
  await admin.goto('/admin');
  await screens.getByRole('link', { name: /Queues/ }).click();
  await expect(admin).toHaveURL(/\/admin\/queues/);
  await expect(admin.getByText('CreatorHub queues').first()).toBeVisible({ timeout: 15_000 });
  await admin.waitForLoadState('networkidle');
  admin.off('console', onConsole);
  expect(errors).toEqual([]);
  expect(requests.filter((url) => !url.startsWith(e2eBaseURL()))).toEqual([]);
  await admin.context().close();
});

test('after Post scheduled the schedule panel closes with the emptied form; the hashtag hint is the same in the edit dialog', async ({ browser }) => {
  const id = Date.now().toString(36);
  const file = await writeFixture(await fixtureDir(), `panel-${id}.png`, await flatPng(48, 48, '#3b6ea5'));
  const noah = await newPageAs(browser, 'noah', { at: '/create' });
  await expect(form(noah).getByText(HASHTAGS_HINT)).toBeVisible();
  await fileInput(noah).setInputFiles(file);
  await form(noah).getByLabel('Post text').fill(`Panel ${id}`);
  await noah.getByRole('button', { name: 'Schedule', exact: true }).click();
  const { date, time } = inAnHour();
  await noah.getByLabel('Date').fill(date);
  await noah.getByLabel('Time').fill(time);
  await noah.getByRole('button', { name: 'Schedule post' }).click();
  await expect(toasts(noah).getByText(SCHEDULE_TEXTS.scheduled.title)).toBeVisible();
  await expect(noah.getByLabel('Date')).toHaveCount(0);
  await expect(noah.getByRole('button', { name: 'Schedule post' })).toHaveCount(0);
  await expect(noah.getByRole('button', { name: 'Schedule', exact: true })).toHaveAttribute('aria-expanded', 'false');
  // the Create tabs keep off the screen's edges on a phone
  await noah.setViewportSize({ width: 375, height: 812 });
  const tabs = await noah.getByRole('tablist', { name: 'Create' }).boundingBox();
  expect(tabs!.x).toBeGreaterThanOrEqual(12);
  expect(tabs!.x + tabs!.width).toBeLessThanOrEqual(375 - 12);
  // each label has room on both sides inside its tab
  const margins = await noah.getByRole('tab').evaluateAll((list) =>
    list.map((tab) => {
      const range = document.createRange();
      range.selectNodeContents(tab);
      const text = range.getBoundingClientRect();
      const box = tab.getBoundingClientRect();
      return Math.min(text.left - box.left, box.right - text.right);
    }),
  );
  for (const margin of margins) expect(margin, margins.join(', ')).toBeGreaterThanOrEqual(8);
  await noah.evaluate(() => window.scrollTo(0, 0));
  await noah.screenshot({ path: path.join(SCREENS, 'create-tabs-375.png') });
  await fitsPhone(noah);
  await shoot(noah, 'create-after-schedule', false);

  // the edit dialog's hashtag field says the same as the upload form's
  await noah.goto('/noah');
  const post = noah.locator('article[data-post-id]').first();
  await post.getByRole('button', { name: 'Post options' }).click();
  await noah.getByRole('menuitem', { name: POST_EDIT_TEXTS.menuItem }).click();
  const dialog = noah.getByRole('alertdialog', { name: POST_EDIT_TEXTS.title });
  await expect(dialog.getByText(HASHTAGS_HINT)).toBeVisible();
  await shoot(noah, 'edit-post-hashtag-hint', false);
  await noah.context().close();
});

test('a post of three pictures: "Post published" takes the place of "Uploaded - your post is processing", never beside it', async ({ browser }) => {
  test.setTimeout(90_000);
  const id = Date.now().toString(36);
  const dir = await fixtureDir();
  const photos = await Promise.all(['#b03a2e', '#1e8449', '#2874a6'].map(async (c, i) => writeFixture(dir, `photo${i + 1}-${id}.png`, await flatPng(64, 48, c))));
  const noah = await newPageAs(browser, 'noah', { at: '/create' });
  await fileInput(noah).setInputFiles(photos);
  await form(noah).getByLabel('Title').fill(`Three at the lake ${id}`);
  // the page records whether the two toasts were ever shown at the same moment
  await noah.evaluate(
    ([a, b]) => {
      const w = window as unknown as { bothShown: boolean };
      w.bothShown = false;
      new MutationObserver(() => {
        const texts = [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent ?? '');
        if (texts.some((t) => t.includes(a!)) && texts.some((t) => t.includes(b!))) w.bothShown = true;
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    },
    [POST_TEXTS.published.title, MULTI_FILE_TEXTS.uploaded],
  );
  await publishButton(noah).click();
  const published = toasts(noah).getByText(POST_TEXTS.published.title, { exact: true });
  const uploaded = toasts(noah).getByText(MULTI_FILE_TEXTS.uploaded, { exact: true });
  await expect(published).toBeVisible({ timeout: 60_000 });
  expect(await noah.evaluate(() => (window as unknown as { bothShown: boolean }).bothShown)).toBe(false);
  await expect(uploaded).toHaveCount(0);
  await noah.context().close();
});

test('notification switches save as they are flipped: leaving without Save keeps them', async ({ browser }) => {
  const fan = await newPageAs(browser, bulkFan(33).email, { at: '/settings/account/notifications' });
  const marketing = fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails });
  await expect(marketing).toBeVisible();
  const wasOn = (await marketing.getAttribute('aria-checked')) === 'true';
  await marketing.click();
  await expect(toasts(fan).getByText(SETTINGS_TEXTS.notificationsSaved)).toBeVisible();
  await shoot(fan, 'notification-settings-saved', false);
  // left without Save, then back: the switch is as flipped
  await fan.goto('/settings');
  await fan.goto('/settings/account/notifications');
  await expect(fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails })).toHaveAttribute('aria-checked', String(!wasOn));
  // and back as it was, twice quickly: the last flip is what stays
  await fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails }).click();
  await fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails }).click();
  await fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails }).click();
  await expect(toasts(fan).getByText(SETTINGS_TEXTS.notificationsSaved)).toHaveCount(1);
  await fan.waitForTimeout(1_000);
  await fan.reload();
  await expect(fan.getByRole('switch', { name: SETTINGS_TEXTS.marketingEmails })).toHaveAttribute('aria-checked', String(wasOn));
  await fan.context().close();
});

test('/notifications has one main landmark and no "Mark all as read" with nothing unread', async ({ browser }) => {
  const fan = await newPageAs(browser, bulkFan(34).email, { at: '/' });
  expect((await trpcMutation(fan.request, e2eBaseURL(), 'notifications.markAllRead', undefined)).status).toBe(200);
  await fan.goto('/notifications');
  await expect(fan.getByRole('heading', { level: 1, name: 'Notifications' })).toBeVisible();
  await expect(fan.getByRole('main')).toHaveCount(1);
  await expect(fan.getByRole('combobox')).toBeVisible();
  await expect(fan.getByRole('button', { name: 'Mark all as read' })).toHaveCount(0);
  await shoot(fan, 'notifications-none-unread', false);
  await fan.context().close();
});

test('the subscribe page counts only the kinds there are; the phone layouts of feed, chat and profile fit', async ({ browser }) => {
  const lena = await newPageAs(browser, 'lena', { at: '/ava/subscribe' });
  const kinds = lena.getByRole('list', { name: 'Premium posts by kind' });
  await expect(kinds.getByRole('listitem').first()).toBeVisible();
  const labels = await kinds.getByRole('listitem').evaluateAll((items) => items.map((i) => i.getAttribute('aria-label') ?? ''));
  expect(labels.length).toBeGreaterThan(0);
  for (const label of labels) expect(label).not.toMatch(/^0 /);
  await expect(lena.getByText(/\b0 (videos|audio|images|documents)\b/)).toHaveCount(0);
  // 'Subscribe to Ava Moreau' wraps on a phone: the tick stays with 'Moreau'
  await lena.setViewportSize({ width: 375, height: 812 });
  await badgeFollowsLastWord(lena.getByRole('heading', { level: 1, name: /Subscribe to Ava Moreau/ }));
  await shoot(lena, 'subscribe-ava');
  await lena.context().close();

  const sam = await newPageAs(browser, 'sam', { at: '/', viewport: { width: 375, height: 812 } });
  // the feed's heading and its Refresh button do not overlap
  const heading = sam.getByRole('heading', { name: 'Your feed' });
  await expect(heading).toBeVisible();
  const refresh = sam.getByRole('button', { name: 'Refresh feed' });
  await expect(refresh).toBeVisible();
  // the heading's room (its box less its padding) stops before the button at every width below the desktop's side dock
  for (const width of [375, 320, 800]) {
    await sam.setViewportSize({ width, height: 812 });
    const room = await heading.evaluate((h) => {
      const box = h.getBoundingClientRect();
      return { left: box.left, right: box.right - parseFloat(getComputedStyle(h).paddingRight), top: box.top, bottom: box.bottom };
    });
    const r = (await refresh.boundingBox())!;
    const overlap = room.left < r.x + r.width && r.x < room.right && room.top < r.y + r.height && r.y < room.bottom;
    expect(overlap, `at ${width} px`).toBe(false);
  }
  await sam.setViewportSize({ width: 375, height: 812 });
  await fitsPhone(sam);
  await shoot(sam, 'feed-sam', false);

  await sam.goto('/messages/ava');
  await expect(sam.getByRole('textbox').first()).toBeVisible();
  // the partner's name is not cut on a phone
  const partner = sam.getByRole('heading', { level: 1, name: 'Ava Moreau' });
  await expect(partner).toBeVisible();
  expect(await partner.evaluate((h) => h.scrollWidth <= h.clientWidth)).toBe(true);
  await expect(sam.getByRole('button', { name: /^Tip / })).toBeVisible();
  await fitsPhone(sam);
  await shoot(sam, 'chat-ava', false);

  await sam.goto('/ava');
  await fitsPhone(sam);
  // a name that wraps keeps its verified badge after its last word, not floating beside the block
  await sam.setViewportSize({ width: 320, height: 812 });
  await sam.locator('#profile-name').evaluate((h) => (h.firstChild!.textContent = 'Ava with a much longer display name, '));
  await badgeFollowsLastWord(sam.locator('#profile-name'));
  await sam.reload();
  await sam.setViewportSize({ width: 375, height: 812 });
  await shoot(sam, 'profile-ava', false);
  await sam.context().close();
});
