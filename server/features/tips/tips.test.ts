import { paid } from '../../../tests/helpers/paid';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { TIP_TEXTS } from '../../../common/tip-texts';
import type { TipReceivedEvent } from '../../../common/socket-events';
import { makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { socketPool } from '../../../tests/helpers/sockets';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

const paymentsOf = (userId: string) =>
  app.deps.db.selectFrom('payments').select(['id', 'purpose', 'tip_message', 'amount_cents', 'creator_id', 'tier_id', 'subscription_id', 'kind']).where('user_id', '=', userId).execute();

describe('tips.send', () => {
  it('20 identical parallel presses make one tip payment; the creator hears it once; the fan history shows it; nothing is unlocked', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    await app.deps.db.updateTable('profiles').set({ display_name: 'Ava Stone' }).where('id', '=', creator.id).execute();
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const creatorSocket = await sockets.open(app, creator);
    const heard: TipReceivedEvent[] = [];
    creatorSocket.on('tip:received', (e) => heard.push(e));
    const fanSocket = await sockets.open(app, fan);
    const entitlements: unknown[] = [];
    fanSocket.on('entitlement:changed', (e) => entitlements.push(e));
    const key = randomUUID();
    const input = { creatorUsername: creator.username, amount: '50', confirmedAmount: '50.00', message: 'Thanks for the set!', idempotencyKey: key };
    const results = await Promise.all(Array.from({ length: 20 }, () => asFan.trpc.tips.send.mutate(input)));
    expect(new Set(results.map((r) => paid(r).tipId)).size).toBe(1);
    expect(results[0]).toMatchObject({ amount: '50.00', creatorName: 'Ava Stone', testPayment: true });
    const rows = await paymentsOf(fan.id);
    expect(rows).toEqual([
      { id: paid(results[0]!).tipId, purpose: 'tip', tip_message: 'Thanks for the set!', amount_cents: '5000', creator_id: creator.id, tier_id: null, subscription_id: null, kind: 'charge' },
    ]);
    // a retry after the answer: the same tip, still one row
    expect(paid(await asFan.trpc.tips.send.mutate(input)).tipId).toBe(paid(results[0]!).tipId);
    expect(await paymentsOf(fan.id)).toHaveLength(1);
    await expect.poll(() => heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ tipId: paid(results[0]!).tipId, fanId: fan.id, fanUsername: fan.username, amount: '50.00', message: 'Thanks for the set!' });
    const history = await asFan.trpc.payments.history.query();
    expect(JSON.stringify(history)).toContain('Tip — Ava Stone');
    // a tip never unlocks anything
    expect(entitlements).toEqual([]);
    expect(await app.deps.db.selectFrom('subscriptions').select('id').where('subscriber_id', '=', fan.id).execute()).toEqual([]);
    // a new key is a new tip
    await asFan.trpc.tips.send.mutate({ ...input, idempotencyKey: randomUUID() });
    expect(await paymentsOf(fan.id)).toHaveLength(2);
    await expect.poll(() => heard.length).toBe(2);
  });

  it('refuses oneself, non-creators, hidden/private creators, unknown names, an unconfirmed amount and amounts out of range', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const notCreator = await makeUser(app.deps.db);
    const hidden = await makeUser(app.deps.db, { isCreator: true, visibility: 'hidden' });
    const priv = await makeUser(app.deps.db, { isCreator: true, visibility: 'private' });
    const asFan = await clientAs(app, fan.id);
    const asCreator = await clientAs(app, creator.id);
    const tip = (username: string, over: Partial<{ amount: string; confirmedAmount: string; message: string }> = {}) => ({
      creatorUsername: username, amount: '20', confirmedAmount: '20.00', idempotencyKey: randomUUID(), ...over,
    });
    await expectTrpcError(asCreator.trpc.tips.send.mutate(tip(creator.username)), 'FORBIDDEN', TIP_TEXTS.selfTip);
    for (const username of ['nobody-here', notCreator.username, hidden.username, priv.username]) {
      await expectTrpcError(asFan.trpc.tips.send.mutate(tip(username)), 'NOT_FOUND', TIP_TEXTS.creatorNotFound);
    }
    await expectTrpcError(asFan.trpc.tips.send.mutate(tip(creator.username, { confirmedAmount: '2.00' })), 'CONFLICT', TIP_TEXTS.amountMismatch);
    await expectTrpcError(asFan.trpc.tips.send.mutate(tip(creator.username, { amount: '9.99', confirmedAmount: '9.99' })), 'BAD_REQUEST');
    await expectTrpcError(asFan.trpc.tips.send.mutate(tip(creator.username, { amount: '5000.01', confirmedAmount: '5000.01' })), 'BAD_REQUEST');
    await expectTrpcError(asFan.trpc.tips.send.mutate(tip(creator.username, { message: 'x'.repeat(201) })), 'BAD_REQUEST');
    await expectTrpcError(app.client().trpc.tips.send.mutate(tip(creator.username)), 'UNAUTHORIZED');
    expect(await paymentsOf(fan.id)).toEqual([]);
    expect(await paymentsOf(creator.id)).toEqual([]);
  });

  it("a key already spent on another creator's tip is not reused for this one", async () => {
    const a = await makeUser(app.deps.db, { isCreator: true });
    const b = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const key = randomUUID();
    await asFan.trpc.tips.send.mutate({ creatorUsername: a.username, amount: '20', confirmedAmount: '20', idempotencyKey: key });
    await expectTrpcError(asFan.trpc.tips.send.mutate({ creatorUsername: b.username, amount: '20', confirmedAmount: '20', idempotencyKey: key }), 'CONFLICT');
    expect(await paymentsOf(fan.id)).toHaveLength(1);
  });
});
