import { expect, test, type Locator } from '@playwright/test';
import { SELLING_TEXTS } from '../../common/selling';
import { BILLING_TEXTS } from '../../common/texts';
import { flatPng } from '../helpers/media-fixtures';
import { newPageAs, toasts } from './support/app';
import { seriousViolations, violationLines, WCAG_A_AA } from './support/axe';
import { newCreator } from './support/new-creator';
import { shootWidths } from './support/screens';

/**
 * Issue 47 item 1 in a browser: a creator who signed up a moment ago cannot sell before their
 * identity is verified. The tier form, a post's price, a message's price (one fan and many) say
 * what is missing with a link to /settings/account/verification, and a fan's tip is refused with
 * the reason; the creator takes the built-in provider's test verification there, and then adds a tier.
 */

const VERIFICATION = '/settings/account/verification';

async function expectNotice(where: Locator, sale: Parameters<typeof SELLING_TEXTS.verifyFirst>[0]) {
  const notice = where.getByRole('note', { name: SELLING_TEXTS.noticeTitle });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText(SELLING_TEXTS.verifyFirst(sale));
  await expect(notice.getByRole('link', { name: SELLING_TEXTS.noticeLink })).toHaveAttribute('href', VERIFICATION);
}

test('a new creator sells nothing before verifying: each place says what is missing; after the test verification a tier is added', async ({ browser }) => {
  test.setTimeout(150_000);
  const { page: creator, username } = await newCreator(browser, 'seller', ['Sol', 'Seller']);

  // --- the tier form: the notice and its link, Save Tier off
  await creator.goto('/create?tab=tiers');
  await creator.getByRole('button', { name: 'Add Tier' }).click();
  const form = creator.getByRole('form', { name: 'New subscription tier' });
  await expectNotice(form, 'tier');
  await expect(form.getByRole('button', { name: 'Save Tier' })).toBeDisabled();
  await shootWidths(creator, 'verify-tier-form-blocked');
  expect(violationLines(await seriousViolations(creator, WCAG_A_AA))).toEqual([]);

  // --- a post's price (the upload form's pay-per-view)
  await creator.goto('/create');
  await creator.getByLabel('Pay-per-view: fans unlock it for a price').check();
  await expectNotice(creator.locator('main'), 'postPrice');

  // --- a message's price: to one fan (with a file attached) and to many
  await creator.goto('/messages/lena');
  await creator.getByTestId('attachment-input').setInputFiles({ name: 'set.png', mimeType: 'image/png', buffer: await flatPng(320, 200, '#7c3aed') });
  await expectNotice(creator.locator('main'), 'messagePrice');
  await shootWidths(creator, 'verify-message-price-blocked');
  await creator.goto('/create?tab=messages');
  await expectNotice(creator.locator('main'), 'massMessagePrice');

  // --- a fan's tip: refused, with the reason
  const fan = await newPageAs(browser, 'lena', { at: `/${username}` });
  await fan.getByRole('button', { name: 'Tip Sol Seller' }).click();
  await fan.getByTestId('tip-dialog').getByRole('button', { name: 'Continue with R50.00' }).click();
  await fan.getByTestId('purchase-dialog').getByRole('button', { name: 'Pay R50.00' }).click();
  await expect(toasts(fan).getByText(SELLING_TEXTS.tipsClosed('Sol Seller'))).toBeVisible();
  await fan.context().close();

  // --- the link leads to the verification screen: Identity not verified, and the labelled test verification
  await creator.goto('/create?tab=tiers');
  await creator.getByRole('button', { name: 'Add Tier' }).click();
  await form.getByRole('link', { name: SELLING_TEXTS.noticeLink }).click();
  await expect(creator).toHaveURL(new RegExp(`${VERIFICATION}$`));
  const identity = creator.getByRole('listitem').filter({ hasText: SELLING_TEXTS.identityLabel });
  await expect(identity.getByText('Not Verified')).toBeVisible();
  const panel = creator.getByRole('region', { name: SELLING_TEXTS.testVerifyTitle });
  await expect(panel).toContainText(SELLING_TEXTS.testVerifyBody);
  await shootWidths(creator, 'verification-not-verified');
  expect(violationLines(await seriousViolations(creator, WCAG_A_AA))).toEqual([]);
  await panel.getByRole('button', { name: SELLING_TEXTS.testVerifyButton }).click();
  await expect(toasts(creator).getByText(SELLING_TEXTS.testVerified)).toBeVisible();
  await expect(identity.getByText('Verified', { exact: true })).toBeVisible();
  await expect(identity).toContainText(SELLING_TEXTS.identityByTest);
  await expect(panel).toHaveCount(0);
  await shootWidths(creator, 'verification-test-verified');

  // --- now the tier form takes a tier
  await creator.goto('/create?tab=tiers');
  await creator.getByRole('button', { name: 'Add Tier' }).click();
  await expect(form.getByRole('note', { name: SELLING_TEXTS.noticeTitle })).toHaveCount(0);
  await form.getByLabel('Name').fill('Gold');
  await form.getByLabel('Price (R)').fill('60');
  await form.getByRole('button', { name: 'Save Tier' }).click();
  await expect(toasts(creator).getByText(BILLING_TEXTS.tierAdded)).toBeVisible();
  await expect(creator.getByRole('list', { name: 'Your subscription tiers' }).getByText('Gold')).toBeVisible();
  await creator.context().close();
});
