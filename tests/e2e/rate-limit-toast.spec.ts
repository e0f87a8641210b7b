import { expect, test, type Locator } from '@playwright/test';
import { COMMENT_TEXTS, SERVER_TEXTS } from '../../common/texts';
import { newPageAs, toasts, watchToasts } from './support/app';

/**
 * Every write has a budget (server/auth/write-budgets.ts; the budgets themselves are proved by
 * tests/integration/write-budgets.test.ts, and this run's budgets are raised for one address).
 * Here the answer is the server's 429 as the tRPC adapter sends it, so the screen's handling is
 * what is tested: the server's words in one toast, not the screen's own 'Failed to add comment'.
 */
const RATE_LIMITED = [
  {
    error: {
      json: {
        message: SERVER_TEXTS.tooManyRequests,
        code: -32029,
        data: { code: 'TOO_MANY_REQUESTS', httpStatus: 429, path: 'comments.add', validation: null, retryAfterSeconds: 42 },
      },
    },
  },
];

const commentsButton = (post: Locator) => post.getByRole('button', { name: 'Comments', exact: true });

test('a comment over its budget shows the server words "Too many requests..." as a toast', async ({ browser }) => {
  const page = await newPageAs(browser, 'lena');
  await page.route('**/trpc/comments.add*', (route) =>
    route.fulfill({ status: 429, headers: { 'content-type': 'application/json', 'retry-after': '42' }, body: JSON.stringify(RATE_LIMITED) }),
  );
  const first = page.getByRole('list', { name: 'Posts' }).getByRole('article').first();
  const comments = (await commentsButton(first).textContent()) ?? '';
  await commentsButton(first).click();
  const seen = await watchToasts(page);
  await first.getByLabel(COMMENT_TEXTS.label).fill('One comment too many');
  await first.getByRole('button', { name: 'Post', exact: true }).click();

  const toast = toasts(page).locator('[data-sonner-toast]').filter({ hasText: SERVER_TEXTS.tooManyRequests });
  await expect(toast).toBeVisible();
  await expect(toast.getByText('Error', { exact: true })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('rate-limited-1280.png') });
  await page.setViewportSize({ width: 375, height: 800 });
  await page.screenshot({ path: test.info().outputPath('rate-limited-375.png') });
  // the comment was taken back (its text stays in the box to send later), and the screen's own
  // failure toast did not repeat the refusal
  await expect(first.getByLabel(COMMENT_TEXTS.label)).toHaveValue('One comment too many');
  await expect(commentsButton(first)).toHaveText(comments);
  expect((await seen()).filter((text) => text.includes(COMMENT_TEXTS.addFailed.description ?? COMMENT_TEXTS.addFailed.title))).toEqual([]);
});
