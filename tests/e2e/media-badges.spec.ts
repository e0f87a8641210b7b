import { expect, test } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatDuration } from '../../common/duration';
import { newPageAs, trpcQuery, type ApiPost } from './support/app';

/**
 * Honest marks on media (issue 14 item 8) against the seeded demo, read only: a video shows a
 * play mark and its length, in a feed card and in a grid tile; a premium tile shows a lock only
 * to whom it is locked (lena does not subscribe to maya), and a Premium badge to a subscriber
 * (zoe does).
 */

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screenshots');
const grid = (page: import('@playwright/test').Page) => page.getByRole('list', { name: 'Explore posts' });

test('a video shows a play mark and its duration, in its card and its tile', async ({ browser }) => {
  const lena = await newPageAs(browser, 'lena');
  const page = await trpcQuery<{ items: (ApiPost & { media: { durationSeconds: number | null } | null })[] }>(lena.request, 'profiles.posts', {
    username: 'kai',
    limit: 20,
  });
  const video = page.items.find((p) => p.title === 'New any% route')!;
  expect(video.media?.durationSeconds).toBeGreaterThan(0);
  const duration = formatDuration(video.media!.durationSeconds!);

  await lena.goto('/explore?q=route');
  const tile = grid(lena).getByRole('article', { name: 'New any% route' });
  await expect(tile.getByTestId('video-mark')).toBeVisible();
  await expect(tile.getByTestId('video-duration')).toHaveText(duration);

  await lena.goto('/kai');
  const card = lena.getByRole('article', { name: 'New any% route' });
  await expect(card.getByTestId('video-mark')).toBeVisible();
  await expect(card.getByTestId('video-duration')).toHaveText(duration);
  await lena.context().close();
});

test('a premium tile shows a lock to a fan who is not subscribed and a Premium badge to a subscriber', async ({ browser }) => {
  const title = 'PCB walkthrough, part 2';
  const lena = await newPageAs(browser, 'lena', { at: '/explore?q=pcb' });
  const locked = grid(lena).getByRole('article', { name: title });
  await expect(locked.getByText('Premium Content')).toBeVisible();
  await expect(locked.getByTestId('premium-badge')).toHaveCount(0);
  await lena.context().close();

  const zoe = await newPageAs(browser, 'zoe', { at: '/explore?q=pcb' });
  const open = grid(zoe).getByRole('article', { name: title });
  await expect(open.getByTestId('premium-badge')).toHaveText('Premium');
  await expect(open.getByRole('img', { name: title })).toBeVisible();
  await expect(open.getByText('Premium Content')).toHaveCount(0);
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await zoe.setViewportSize({ width, height });
    await open.scrollIntoViewIfNeeded();
    await zoe.screenshot({ path: path.join(screenshotDir, `premium-badge-tile-${width}.png`) });
  }
  await zoe.context().close();
});
