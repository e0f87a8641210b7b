import { expect, test, type Browser } from '@playwright/test';
import { e2eBaseURL, newPageAs, toasts, trpcMutation } from './support/app';
import { shootWidths } from './support/screens';
import { newCreator as makeNewCreator, verifyIdentity } from './support/new-creator';

/**
 * Issue 47 items 2, 3 and 5 in a browser, each with a creator who signed up a moment ago: guided
 * to the first tier (a checklist on the profile and on /create) while fans see no Subscribe that
 * leads nowhere; an offer and a trial link made on the forms' defaults; and what Earnings says
 * before any payout account or earning.
 */


const newCreator = (browser: Browser, opts: { verified?: boolean } = {}) => makeNewCreator(browser, 'newbie', ['Nia', 'Newbie'], opts);

test('a new creator is guided to the first tier on the profile and on /create; fans see no Subscribe until there is a tier', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page: creator, username } = await newCreator(browser);

  // --- the creator's own profile: the checklist, each step a link to the screen that does it
  await creator.goto(`/${username}`);
  const checklist = creator.getByRole('region', { name: 'Get ready to sell' });
  await expect(checklist).toBeVisible();
  await expect(checklist.getByTestId('first-steps-progress')).toHaveText('0 of 4 done');
  await expect(checklist.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0');
  await expect(checklist.getByRole('link', { name: /Verify your identity/ })).toHaveAttribute('href', '/settings/account/verification');
  await expect(checklist.getByRole('link', { name: /payout account/ })).toHaveAttribute('href', '/settings/account/payment');
  await expect(checklist.getByRole('link', { name: /first subscription tier/ })).toHaveAttribute('href', '/create?tab=tiers');
  await expect(checklist.getByRole('link', { name: /first post/ })).toHaveAttribute('href', '/create');
  await checklist.getByRole('link', { name: /payout account/ }).focus();
  await shootWidths(creator, 'first-steps-profile');

  // --- /create: the same checklist; its tier step opens the Subscription Tiers tab
  await creator.goto('/create');
  await expect(checklist).toBeVisible();
  await shootWidths(creator, 'first-steps-create');
  await checklist.getByRole('link', { name: /first subscription tier/ }).click();
  await expect(creator).toHaveURL(/\/create\?tab=tiers$/);
  await expect(creator.getByRole('tab', { name: 'Subscription Tiers', selected: true })).toBeVisible();

  // --- a fan and a visitor: no Subscribe and no Subscribe Now card that lead nowhere
  const fan = await newPageAs(browser, 'lena', { at: `/${username}` });
  const visitor = await (await browser.newContext({ baseURL: e2eBaseURL() })).newPage();
  await visitor.goto(`/${username}`);
  for (const viewer of [fan, visitor]) {
    await expect(viewer.getByRole('heading', { level: 1 })).toContainText('Nia');
    await expect(viewer.getByRole('link', { name: 'Subscribe', exact: true })).toHaveCount(0);
    await expect(viewer.getByRole('link', { name: 'Subscribe Now' })).toHaveCount(0);
    await expect(viewer.getByRole('region', { name: 'Get ready to sell' })).toHaveCount(0);
  }
  await shootWidths(fan, 'first-steps-fan-profile');
  // the subscribe page, reached by its address: it says so and leads back to the free posts
  await fan.goto(`/${username}/subscribe`);
  await expect(fan.getByText('No subscription tiers available yet.')).toBeVisible();
  await expect(fan.getByText('Choose a plan to unlock premium posts')).toHaveCount(0);
  await shootWidths(fan, 'first-steps-fan-subscribe');
  await fan.getByRole('link', { name: /See .*posts/ }).click();
  await expect(fan).toHaveURL(new RegExp(`/${username}$`));

  // --- the first tier (once verified: issue 47 item 1): fans get Subscribe and the card; the checklist is gone
  await verifyIdentity(creator.request);
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: 'Gold', price: '60', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);
  await fan.reload();
  await expect(fan.getByRole('link', { name: 'Subscribe', exact: true })).toBeVisible();
  await expect(fan.getByRole('link', { name: 'Subscribe Now' })).toBeVisible();
  await creator.goto('/create');
  await expect(creator.getByRole('heading', { name: 'Create', level: 1 })).toBeVisible();
  await expect(creator.getByRole('tab', { name: 'Content' })).toBeVisible();
  await expect(creator.getByRole('region', { name: 'Get ready to sell' })).toHaveCount(0);
});

test('an offer and a trial link made on the forms defaults: "All tiers" works, no tier asks to choose one', async ({ browser }) => {
  test.setTimeout(120_000);
  const { page: creator } = await newCreator(browser, { verified: true });
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'tiers.create', { name: 'Gold', price: '60', paymentInterval: 'monthly', discountPercentage: 0 })).status).toBe(200);
  await creator.goto('/create?tab=tiers');

  // --- an offer: every field as the form opens (All tiers, new fans, 20%, from today for 14 days)
  await creator.getByRole('button', { name: 'New offer' }).click();
  const offer = creator.getByRole('form', { name: 'New offer' });
  await expect(offer.getByLabel('Tier')).toHaveValue('');
  await offer.getByRole('button', { name: 'Create offer' }).click();
  await expect(toasts(creator).getByText('Offer created')).toBeVisible();
  await expect(creator.getByRole('listitem', { name: '20% off all tiers for new fans' })).toBeVisible();
  await expect(creator.getByText('Subscription tier not found')).toHaveCount(0);

  // --- a trial link with no tier chosen: asked to choose one, beside the field, focused; no toast over the button
  await creator.getByRole('button', { name: 'New trial link' }).click();
  const trial = creator.getByRole('form', { name: 'New trial link' });
  await trial.getByRole('button', { name: 'Create link' }).click();
  const tier = trial.getByLabel('Tier');
  await expect(tier).toHaveAttribute('aria-invalid', 'true');
  await expect(tier).toHaveAccessibleDescription('Choose a tier');
  await expect(tier).toBeFocused();
  await expect(creator.getByText('Subscription tier not found')).toHaveCount(0);
  await expect(toasts(creator).locator('[data-sonner-toast]')).toHaveCount(0);
  await shootWidths(creator, 'trial-link-choose-tier');
  await tier.selectOption({ label: 'Gold (R60.00)' });
  await trial.getByRole('button', { name: 'Create link' }).click();
  await expect(toasts(creator).getByText('Trial link created')).toBeVisible();
  await expect(creator.getByRole('listitem', { name: '7 days free of Gold' })).toBeVisible();
});

test("a new creator's Earnings: no payout day without a payout account (with the way to set one up), and no empty chart", async ({ browser }) => {
  test.setTimeout(120_000);
  const { page: creator } = await newCreator(browser);
  await creator.goto('/create?tab=earnings');
  await expect(creator.getByTestId('earnings-available')).toHaveText('R0.00');
  await expect(creator.getByTestId('earnings-next-payout')).toHaveText('None yet');
  const note = creator.getByTestId('earnings-next-payout-note');
  await expect(note).toContainText('Payouts start once your payout account is set up.');
  await expect(note.getByRole('link', { name: 'Set up payouts' })).toHaveAttribute('href', '/settings/account/payment');
  const chart = creator.getByRole('region', { name: /Net earnings per week/ });
  await expect(chart.getByText('No earnings in the last 12 weeks.', { exact: false })).toBeVisible();
  await expect(chart.locator('svg.recharts-surface')).toHaveCount(0);
  await chart.getByRole('button', { name: 'Monthly' }).click();
  await expect(creator.getByText('No earnings in the last 12 months.', { exact: false })).toBeVisible();
  await shootWidths(creator, 'earnings-new-creator');
  // the Subscription Tiers tab's revenue card: a line, not an empty R0-R4 chart
  await creator.getByRole('tab', { name: 'Subscription Tiers' }).click();
  await expect(creator.getByText('No revenue in the last 12 weeks yet.')).toBeVisible();
  await expect(creator.locator('svg.recharts-surface')).toHaveCount(0);
  await shootWidths(creator, 'tiers-revenue-new-creator');

  // payouts set up: a payout day again
  expect((await trpcMutation(creator.request, e2eBaseURL(), 'earnings.setUpPayouts', undefined)).status).toBe(200);
  await creator.goto('/create?tab=earnings');
  await expect(creator.getByTestId('earnings-next-payout')).toHaveText(/^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), /);
  await expect(creator.getByTestId('earnings-next-payout-note')).toHaveCount(0);
});
