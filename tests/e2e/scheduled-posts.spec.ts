import { expect, test, type Page } from '@playwright/test';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SCHEDULE_TEXTS } from '../../common/schedule';
import { flatPng } from '../helpers/media-fixtures';
import { e2eBaseURL, newPageAs, toasts, trpcMutation, trpcQueryRaw } from './support/app';
import { withDatabase } from './support/retry-reset';
import { fileInput, fixtureDir, form, waitForUploadedPostId, writeFixture } from './support/uploads';

const SCREENS = 'tests/.artifacts/screens';

async function shoot(page: Page, name: string) {
  for (const width of [1280, 375]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SCREENS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

/**
 * Scheduled posts (issue 29 item 1): noah (public) schedules a picture an hour ahead from the
 * upload form; a fan can open neither the post nor its media, and it is not in their feed. Then
 * its time comes: the e2e server runs on the real clock, so the post's time is moved to now in
 * the database (as a clock moved forward would make it due) and the schedule's job is run, as its
 * repeatable schedule would within 30 s; the fan's open feed gets it live.
 */
test('a scheduled post is invisible to a fan until its time, then appears in their open feed live', async ({ browser }) => {
  const id = Date.now().toString(36);
  const file = await writeFixture(await fixtureDir(), `later-${id}.png`, await flatPng(64, 64, '#a53b6e'));
  const [noah, fan] = await Promise.all([newPageAs(browser, 'noah', { at: '/create' }), newPageAs(browser, 'fan32@demo.test')]);
  await expect(fan.getByRole('list', { name: 'Posts' }).getByRole('article').first()).toBeVisible();

  await fileInput(noah).setInputFiles(file);
  await form(noah).getByLabel('Post text').fill(`Later ${id}`);
  await noah.getByRole('button', { name: 'Schedule', exact: true }).click();
  await expect(noah.getByLabel('Date')).toBeVisible();
  await shoot(noah, 'upload-form-schedule');
  // a time in the past is refused in the form
  await noah.getByLabel('Time').fill('00:00');
  // not a clock: a date long past, refused by the form
  await noah.getByLabel('Date').fill('2020-01-01');
  await noah.getByRole('button', { name: 'Schedule post' }).click();
  await expect(noah.getByRole('alert').filter({ hasText: SCHEDULE_TEXTS.inPast })).toBeVisible();
  const inAnHour = new Date(Date.now() + 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await noah.getByLabel('Date').fill(`${inAnHour.getFullYear()}-${pad(inAnHour.getMonth() + 1)}-${pad(inAnHour.getDate())}`);
  await noah.getByLabel('Time').fill(`${pad(inAnHour.getHours())}:${pad(inAnHour.getMinutes())}`);
  const postIdPromise = waitForUploadedPostId(noah);
  await noah.getByRole('button', { name: 'Schedule post' }).click();
  const postId = await postIdPromise;
  await expect(toasts(noah).getByText(SCHEDULE_TEXTS.scheduled.title)).toBeVisible();

  // processed at once, then waiting: the owner's Scheduled tab lists it with its time
  await expect(async () => {
    const status = await withDatabase(async (c) => (await c.query('select status from posts where id = $1', [postId])).rows[0]?.status);
    expect(status).toBe('scheduled');
  }).toPass({ timeout: 30_000 });
  await noah.goto('/noah?tab=scheduled');
  const row = noah.locator(`article[data-post-id="${postId}"]`);
  await expect(row).toContainText(`Later ${id}`);
  await expect(row.getByRole('button', { name: /Publish .* now/ })).toBeVisible();
  await shoot(noah, 'profile-scheduled-tab');

  // nobody else: not the post page, not its media, not the feed
  expect((await trpcQueryRaw(fan.request, 'posts.byId', { id: postId })).status).toBe(404);
  for (const variant of ['web', 'original', 'thumb']) expect([403, 404]).toContain((await fan.request.get(`/media/${postId}/${variant}`)).status());
  const card = fan.locator(`article[data-post-id="${postId}"]`);
  await expect(card).toHaveCount(0);

  // its time comes
  await withDatabase((c) => c.query("update posts set publish_at = now() - interval '1 second' where id = $1", [postId]));
  const connection = new Redis({ maxRetriesPerRequest: null });
  const maintenance = new Queue('maintenance', { connection, prefix: process.env.E2E_REDIS_PREFIX });
  await maintenance.add('publish-scheduled', {});
  await maintenance.close();
  connection.disconnect();

  const pill = fan.getByRole('button', { name: /^\d+ new posts?$/ });
  await expect(async () => {
    await pill.click({ timeout: 2_000 });
    await expect(card).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(card).toContainText(`Later ${id}`);
  expect((await fan.request.get(`/media/${postId}/web`)).status()).toBe(200);

  // noah's profile is read by other specs: the post goes
  const removed = await trpcMutation(noah.context().request, e2eBaseURL(), 'posts.delete', { postId });
  expect(removed.status).toBe(200);
  await Promise.all([noah.context().close(), fan.context().close()]);
});
