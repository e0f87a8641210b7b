import { describe, expect, it } from 'vitest';
import { subscriptionEntitlement } from './entitlements';

describe('the entitlement a subscription gives', () => {
  it('is to its creator, or to Premium when it has none', () => {
    expect(subscriptionEntitlement('c1')).toEqual({ kind: 'creator', creatorId: 'c1' });
    expect(subscriptionEntitlement(null)).toEqual({ kind: 'premium' });
  });
});
