import { expect, test } from '@playwright/test';
import { e2eBaseURL, findPost } from './support/app';

/**
 * Issue 30: what Lighthouse's accessibility and best-practice audits read on the pages a phone
 * opens from a shared link (a creator's profile, a post), at 1280 and 375 px:
 * - a post card's time ("9h") opens the post through a link whose name starts with what it
 *   shows (a speech user says "9h"; label-content-name-mismatch) and that a finger can hit, at
 *   least 24 px square (target-size);
 * - the browser reports no Content-Security-Policy violation (Chrome's Issues panel: zod probed
 *   `new Function`, which the policy forbids).
 */
for (const width of [1280, 375]) {
  test(`a profile and a post: the card's time link names what it shows and is a 24 px target, no CSP violation (${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width, height: 800 } });
    const post = await findPost(context.request, 'Golden hour study');
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { violations: string[] };
      w.violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });

    await page.goto('/ava');
    const card = page.locator(`article[data-post-id="${post.id}"]`);
    const time = card.locator('header time');
    await expect(time).toBeVisible();
    const shown = (await time.innerText()).trim();
    // (the name joins the visible time and the rest with or without a space, as browsers do)
    const link = card.getByRole('link', { name: new RegExp(`^${shown} ?, posted .+: open the post$`) });
    await expect(link).toHaveAttribute('href', `/post/${post.id}`);
    const box = await link.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(24);
    expect(box!.height).toBeGreaterThanOrEqual(24);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), '/ava').toEqual([]);

    await page.goto(`/post/${post.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Golden hour study' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { violations: string[] }).violations), '/post').toEqual([]);
    await context.close();
  });
}
