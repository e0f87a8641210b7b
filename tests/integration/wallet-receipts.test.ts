import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { builtinProvider } from '../../core/payments/builtin';
import { addMyTestCard } from '../../server/features/cards/test-cards.service';
import { makeUser } from '../helpers/factories';
import { jobIn } from '../helpers/jobs';
import { pdfText } from '../helpers/pdf-text';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

/**
 * Issue 47 item 6, the wallet: the built-in provider's test cards (add, make default, remove, each
 * fan's own only, refused with a card provider), and every purchase's numbered receipt, on screen
 * (`payments.receipt`) and as a PDF (`GET /receipts/<id>/pdf`), to its payer only: another user's
 * payment id is a 404 like an unknown one. A refund shows on the receipt of its charge.
 */
const app = useTestServer();

async function fanAndCreator() {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const fan = await makeUser(app.deps.db);
  // the factory's display name: the username capitalised, then 'Tester'
  const creatorName = `${creator.username[0]!.toUpperCase()}${creator.username.slice(1)} Tester`;
  return { creator, creatorName, fan, asFan: await clientAs(app, fan.id) };
}

describe('test cards (built-in provider)', () => {
  it('the first card is the default; Make default moves it; removing the default hands it to the newest card left', async () => {
    const { fan, asFan } = await fanAndCreator();
    const other = await clientAs(app, (await makeUser(app.deps.db)).id);
    const cards = async () => (await asFan.trpc.cards.mine.query()).testCards.map((c) => `${c.brand} ${c.last4}${c.isDefault ? ' default' : ''}`);

    expect(await asFan.trpc.cards.mine.query()).toEqual({ provider: 'builtin', card: null, testCards: [] });
    const { cardId: visa } = await asFan.trpc.cards.addTest.mutate({ brand: 'visa' });
    const { cardId: mastercard } = await asFan.trpc.cards.addTest.mutate({ brand: 'mastercard' });
    expect(await cards()).toEqual(['visa 4242 default', 'mastercard 4444']);
    await expectTrpcError(asFan.trpc.cards.addTest.mutate({ brand: 'visa' }), 'CONFLICT', 'This test card is already in your wallet.');

    await asFan.trpc.cards.makeDefault.mutate({ cardId: mastercard });
    expect(await cards()).toEqual(['mastercard 4444 default', 'visa 4242']);

    // another fan can neither make default nor remove it, and learns nothing from trying
    await expectTrpcError(other.trpc.cards.makeDefault.mutate({ cardId: visa }), 'NOT_FOUND', 'Card not found');
    await expectTrpcError(other.trpc.cards.removeTest.mutate({ cardId: mastercard }), 'NOT_FOUND', 'Card not found');
    await expectTrpcError(other.trpc.cards.removeTest.mutate({ cardId: 'not-an-id' }), 'NOT_FOUND', 'Card not found');
    expect(await cards()).toEqual(['mastercard 4444 default', 'visa 4242']);

    await asFan.trpc.cards.addTest.mutate({ brand: 'amex' });
    await asFan.trpc.cards.removeTest.mutate({ cardId: mastercard });
    expect(await cards()).toEqual(['amex 0005 default', 'visa 4242']);
    await expectTrpcError(asFan.trpc.cards.removeTest.mutate({ cardId: mastercard }), 'NOT_FOUND', 'Card not found');

    // only the set of test cards, and no input naming anyone
    await expectTrpcError(asFan.trpc.cards.addTest.mutate({ brand: 'diners' as 'visa' }), 'BAD_REQUEST');
    await expectTrpcError(asFan.trpc.cards.addTest.mutate({ brand: 'visa', userId: fan.id } as { brand: 'visa' }), 'BAD_REQUEST');
    await expectTrpcError(app.client().trpc.cards.addTest.mutate({ brand: 'visa' }), 'UNAUTHORIZED');
  });

  it('is refused while a card provider is configured: no test card is offered or written', async () => {
    const { fan } = await fanAndCreator();
    const stripeLike = { ...app.deps, payments: { ...builtinProvider, name: 'stripe' as const, flow: 'checkout' as const, isTest: false, renewsItself: true } };
    await expect(addMyTestCard(stripeLike, fan.id, { brand: 'visa' })).rejects.toMatchObject({ code: 'BAD_REQUEST', message: 'Test cards are only available with test payments.' });
    expect(await app.deps.db.selectFrom('test_cards').select('id').where('user_id', '=', fan.id).execute()).toEqual([]);
  });
});

describe('receipts', () => {
  it('numbers each purchase once, in order, and shows what, from whom, when and how much; a failed charge takes no number', async () => {
    const { creator, creatorName, fan, asFan } = await fanAndCreator();
    const tip = (amount: string) => asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount, confirmedAmount: amount, idempotencyKey: randomUUID() });
    await tip('311');
    await tip('20');
    const history = await asFan.trpc.payments.history.query();
    const [second, first] = history;
    const number = (label: string | null) => Number(label!.replace(/^CH-/, ''));
    expect(first!.receiptNumber).toMatch(/^CH-\d{6,}$/);
    expect(number(second!.receiptNumber)).toBe(number(first!.receiptNumber) + 1);

    const receipt = await asFan.trpc.payments.receipt.query({ paymentId: first!.id });
    expect(receipt).toMatchObject({
      number: first!.receiptNumber,
      description: `Tip — ${creatorName}`,
      seller: { name: creatorName, username: creator.username },
      amount: '311.00',
      provider: 'builtin',
      label: 'paid',
      reversals: [],
      net: '311.00',
    });

    // a charge that failed takes no number (a failed renewal's row)
    const failed = await app.deps.db
      .insertInto('payments')
      .values({ user_id: fan.id, amount_cents: 5_00, provider: 'builtin', status: 'failed', description: 'A renewal that failed', created_at: new Date() })
      .returning('receipt_number')
      .executeTakeFirstOrThrow();
    expect(failed.receipt_number).toBeNull();
  });

  it('a PDF of the receipt to its payer; anyone else gets 404 for the same id, a visitor 401', async () => {
    const { creator, creatorName, asFan } = await fanAndCreator();
    await asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount: '311', confirmedAmount: '311', idempotencyKey: randomUUID() });
    const [charge] = await asFan.trpc.payments.history.query();

    const response = await asFan.fetch(`/receipts/${charge!.id}/pdf`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${charge!.receiptNumber}.pdf"`);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const text = pdfText(Buffer.from(await response.arrayBuffer()));
    expect(text).toContain(charge!.receiptNumber!);
    expect(text).toContain(`Tip — ${creatorName}`);
    expect(text).toContain(`${creatorName} (@${creator.username})`);
    expect(text).toContain('R311.00');

    const other = await clientAs(app, (await makeUser(app.deps.db)).id);
    const refused = await other.fetch(`/receipts/${charge!.id}/pdf`);
    expect(refused.status).toBe(404);
    expect(await refused.json()).toEqual({ error: { message: 'Receipt not found' } });
    expect((await other.fetch(`/receipts/${randomUUID()}/pdf`)).status).toBe(404);
    expect((await other.fetch('/receipts/not-an-id/pdf')).status).toBe(404);
    await expectTrpcError(other.trpc.payments.receipt.query({ paymentId: charge!.id }), 'NOT_FOUND', 'Receipt not found');
    expect((await app.client().fetch(`/receipts/${charge!.id}/pdf`)).status).toBe(401);
  });

  it("a refund shows on its charge's receipt and PDF; the refund row has no receipt of its own", async () => {
    const { creator, asFan } = await fanAndCreator();
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    await asFan.trpc.tips.send.mutate({ creatorUsername: creator.username, amount: '311', confirmedAmount: '311', idempotencyKey: randomUUID() });
    const [charge] = await asFan.trpc.payments.history.query();

    const key = randomUUID();
    await asAdmin.trpc.payments.adminRefund.mutate({ paymentId: charge!.id, amount: '311', idempotencyKey: key });
    await jobIn(app.deps.queues.maintenance, `provider-refund-admin-refund-${key}`, 'completed');

    const history = await asFan.trpc.payments.history.query();
    expect(history.map((p) => [p.kind, p.amount, p.receiptNumber === null])).toEqual([['refund', '-311.00', true], ['charge', '311.00', false]]);
    const receipt = await asFan.trpc.payments.receipt.query({ paymentId: charge!.id });
    expect(receipt).toMatchObject({ label: 'refunded', reversals: [{ kind: 'refund', amount: '-311.00' }], net: '0.00' });
    await expectTrpcError(asFan.trpc.payments.receipt.query({ paymentId: history[0]!.id }), 'NOT_FOUND', 'Receipt not found');

    const text = pdfText(Buffer.from(await (await asFan.fetch(`/receipts/${charge!.id}/pdf`)).arrayBuffer()));
    expect(text).toContain('Refunded');
    expect(text).toMatch(/Refund\n-R311\.00 on /);
    expect(text).toContain('Total after refunds\nR0.00');
  });
});
