import { describe, expect, it } from 'vitest';
import { bundleOffer } from './bundle-offer';
import { premiumOffer, tierOffer } from './purchase-offer';

const now = new Date('2027-01-31T10:00:00Z');
const tier = { id: 't1', name: 'Gold', paymentInterval: 'monthly' as const, discountedPrice: '3428.20' };

describe('what the confirmation asks the fan to agree to', () => {
  it('a new subscription: charged now, the same each month, first renewal one calendar month on (Jan 31 -> Feb 28)', () => {
    const offer = tierOffer(tier, { id: 'c1', name: 'Maya Chen' }, { now, provider: 'builtin' });
    expect(offer).toMatchObject({
      item: { kind: 'creator', tierId: 't1', creatorId: 'c1' },
      title: 'Subscribe to Maya Chen',
      amountNow: '3428.20',
      confirmedAmount: '3428.20',
      renewal: { amount: '3428.20', every: 'month', firstAt: new Date('2027-02-28T10:00:00Z') },
      startsAt: null,
    });
  });

  it('a tier change: nothing now, the new price from the end of the paid period', () => {
    const end = new Date('2027-02-10T00:00:00Z');
    const offer = tierOffer(tier, { id: 'c1', name: 'Maya Chen' }, { now, provider: null, currentPeriodEnd: end });
    expect(offer).toMatchObject({ title: 'Switch to Gold', amountNow: '0.00', confirmedAmount: '3428.20', startsAt: end, renewal: { firstAt: end } });
  });

  it('Premium: every 30 days from today', () => {
    const offer = premiumOffer({ id: 'p', name: 'Premium', discountedPrice: '150.00', periodDays: 30 }, { now, provider: 'stripe' });
    expect(offer).toMatchObject({
      item: { kind: 'premium', tierId: 'p' },
      amountNow: '150.00',
      renewal: { every: '30 days', firstAt: new Date('2027-03-02T10:00:00Z') },
    });
  });

  it('a bundle: its total now and at each renewal, every 3 months, the first renewal 3 calendar months on (Jan 31 -> Apr 30)', () => {
    const offer = bundleOffer(tier, { periods: 3, total: '9256.14' }, { id: 'c1', name: 'Maya Chen' }, { now, provider: 'builtin' });
    expect(offer).toMatchObject({
      item: { kind: 'creator', tierId: 't1', creatorId: 'c1', bundlePeriods: 3 },
      planName: 'Gold — 3 months',
      amountNow: '9256.14',
      confirmedAmount: '9256.14',
      renewal: { amount: '9256.14', every: '3 months', firstAt: new Date('2027-04-30T10:00:00Z') },
      startsAt: null,
    });
  });
});
