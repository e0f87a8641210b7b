import { describe, expect, it } from 'vitest';
import { toProviderEvent } from '../../core/payments/stripe';
import { periodEnd, periodEndFor } from './periods';

const at = (iso: string) => new Date(iso);

describe('periods', () => {
  it('a week, a calendar month (clamped to the month’s last day), a year; Premium 30 days', () => {
    expect(periodEnd(at('2026-11-23T10:00:00Z'), 'weekly')).toEqual(at('2026-11-30T10:00:00Z'));
    expect(periodEnd(at('2026-01-31T10:00:00Z'), 'monthly')).toEqual(at('2026-02-28T10:00:00Z'));
    expect(periodEnd(at('2028-01-31T10:00:00Z'), 'monthly')).toEqual(at('2028-02-29T10:00:00Z'));
    expect(periodEnd(at('2026-12-15T00:00:00Z'), 'monthly')).toEqual(at('2027-01-15T00:00:00Z'));
    expect(periodEnd(at('2028-02-29T10:00:00Z'), 'annually')).toEqual(at('2029-02-28T10:00:00Z'));
    expect(periodEndFor(at('2026-01-31T00:00:00Z'), { creator_id: null, payment_interval: 'monthly' })).toEqual(at('2026-03-02T00:00:00Z'));
  });
});

describe('Stripe events, as billing reads them', () => {
  it('maps the events it applies and ignores the rest', () => {
    const ev = (type: string, object: object) => toProviderEvent({ id: 'evt_1', type, data: { object } });
    expect(ev('checkout.session.completed', { id: 'cs_1', subscription: 'sub_1', invoice: 'in_1', amount_total: 4000, payment_status: 'paid', metadata: { userId: 'u', tierId: 't', idempotencyKey: 'k' } })).toEqual({
      id: 'evt_1', kind: 'checkout-completed', userId: 'u', tierId: 't', idempotencyKey: 'k', bundlePeriods: null, providerSubscriptionId: 'sub_1', paymentRef: 'in_1', amountCents: 40_00,
      paymentStatus: 'paid',
    });
    // a bundle's Checkout carries its length (ours, in the metadata we set)
    expect(ev('checkout.session.completed', { id: 'cs_3', subscription: 'sub_3', amount_total: 10800, payment_status: 'paid', metadata: { userId: 'u', tierId: 't', idempotencyKey: 'k', bundlePeriods: '3' } })).toMatchObject({ bundlePeriods: 3 });
    expect(ev('checkout.session.completed', { id: 'cs_2', metadata: {} })).toMatchObject({ kind: 'ignored' });
    expect(ev('invoice.paid', { id: 'in_2', amount_paid: 1500, billing_reason: 'subscription_cycle', subscription: 'sub_1', lines: { data: [{ period: { end: 1_800_000_000 } }] } })).toEqual({
      id: 'evt_1', kind: 'invoice-paid', providerSubscriptionId: 'sub_1', paymentRef: 'in_2', amountCents: 15_00, periodEnd: new Date(1_800_000_000_000), firstInvoice: false,
      // no metadata on the subscription: not one of ours by what it says
      subscriber: null,
    });
    // the subscription's metadata names the fan and the tier (a renewal whose row is gone is refunded by them)
    const details = { subscription: 'sub_1', metadata: { userId: 'u', tierId: 't' } };
    expect(ev('invoice.paid', { id: 'in_4', amount_paid: 1500, parent: { subscription_details: details }, lines: { data: [] } })).toMatchObject({ subscriber: { userId: 'u', tierId: 't' } });
    expect(ev('invoice.payment_failed', { id: 'in_3', parent: { subscription_details: { subscription: 'sub_9' } } })).toEqual({ id: 'evt_1', kind: 'invoice-failed', providerSubscriptionId: 'sub_9' });
    expect(ev('customer.subscription.deleted', { id: 'sub_1' })).toEqual({ id: 'evt_1', kind: 'subscription-ended', providerSubscriptionId: 'sub_1' });
    expect(ev('customer.created', { id: 'cus_1' })).toEqual({ id: 'evt_1', kind: 'ignored', type: 'customer.created' });
  });
});
