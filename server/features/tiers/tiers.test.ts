import { describe, expect, it } from 'vitest';
import { makeSubscription, makeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';
import { BILLING_TEXTS } from '../../../common/texts';

const app = useFileServer({ emptyUsers: true });

const gold = { name: 'Gold', description: 'Everything', price: '50', paymentInterval: 'weekly' as const, discountPercentage: 20 };

describe('tiers: the tier manager', () => {
  it('creates, lists by price ascending with the discounted price, updates and deletes an unused tier', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const asAva = await clientAs(app, ava.id);
    const created = await asAva.trpc.tiers.create.mutate(gold);
    expect(created).toMatchObject({ name: 'Gold', price: '50.00', discountPercentage: 20, discountedPrice: '40.00', archivedAt: null, activeSubscribers: 0 });
    await asAva.trpc.tiers.create.mutate({ name: 'Bronze', price: 9.5, paymentInterval: 'monthly' });
    await asAva.trpc.tiers.create.mutate({ name: 'Platinum', price: '999.99', paymentInterval: 'annually', discountPercentage: null });
    expect((await asAva.trpc.tiers.listMine.query()).map((t) => [t.name, t.price])).toEqual([
      ['Bronze', '9.50'],
      ['Gold', '50.00'],
      ['Platinum', '999.99'],
    ]);
    const updated = await asAva.trpc.tiers.update.mutate({ id: created.id, ...gold, price: '60.00', discountPercentage: 0 });
    expect(updated).toMatchObject({ price: '60.00', discountedPrice: '60.00' });
    expect(await asAva.trpc.tiers.delete.mutate({ id: created.id })).toEqual({ outcome: 'deleted', message: BILLING_TEXTS.tierDeleted });
    expect((await asAva.trpc.tiers.listMine.query()).map((t) => t.name)).toEqual(['Bronze', 'Platinum']);
  });

  it('validates every field on the server', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const asAva = await clientAs(app, ava.id);
    const bad = async (input: Record<string, unknown>, field: string, message: string) => {
      const error = await expectTrpcError(asAva.trpc.tiers.create.mutate({ ...gold, ...input } as never), 'BAD_REQUEST');
      const data = error.data as unknown as { validation: { fieldErrors: Record<string, string[]> } };
      expect(data.validation.fieldErrors[field]).toContain(message);
    };
    await bad({ name: '   ' }, 'name', BILLING_TEXTS.tierNameRequired);
    await bad({ name: undefined }, 'name', BILLING_TEXTS.tierNameRequired);
    await bad({ price: '0' }, 'price', BILLING_TEXTS.priceInvalid);
    await bad({ price: '-5' }, 'price', BILLING_TEXTS.priceInvalid);
    await bad({ price: 'abc' }, 'price', BILLING_TEXTS.priceInvalid);
    await bad({ price: '10.999' }, 'price', BILLING_TEXTS.priceDecimals);
    await bad({ price: '100000000' }, 'price', BILLING_TEXTS.priceTooHigh);
    await bad({ paymentInterval: 'daily' }, 'paymentInterval', BILLING_TEXTS.intervalInvalid);
    await bad({ discountPercentage: 101 }, 'discountPercentage', BILLING_TEXTS.discountInvalid);
    await bad({ discountPercentage: -1 }, 'discountPercentage', BILLING_TEXTS.discountInvalid);
    await bad({ discountPercentage: 12.5 }, 'discountPercentage', BILLING_TEXTS.discountInvalid);
    expect(await asAva.trpc.tiers.listMine.query()).toEqual([]);

    // unique per creator, whatever the case; another creator may use the name
    await asAva.trpc.tiers.create.mutate(gold);
    const taken = await expectTrpcError(asAva.trpc.tiers.create.mutate({ ...gold, name: 'gOLD' }), 'CONFLICT', BILLING_TEXTS.tierNameTaken);
    expect((taken.data as unknown as { validation: { fieldErrors: Record<string, string[]> } }).validation.fieldErrors.name).toEqual([BILLING_TEXTS.tierNameTaken]);
    const leo = await makeUser(app.deps.db, { isCreator: true });
    await (await clientAs(app, leo.id)).trpc.tiers.create.mutate(gold);
    // renaming onto a taken name is refused as well
    const bronze = await asAva.trpc.tiers.create.mutate({ ...gold, name: 'Bronze' });
    await expectTrpcError(asAva.trpc.tiers.update.mutate({ ...gold, id: bronze.id, name: 'GOLD' }), 'CONFLICT', BILLING_TEXTS.tierNameTaken);
  });

  it('refuses visitors, fans, and another creator’s tier ids', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const leo = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const tier = await (await clientAs(app, ava.id)).trpc.tiers.create.mutate(gold);
    await expectTrpcError(app.client().trpc.tiers.listMine.query(), 'UNAUTHORIZED', BILLING_TEXTS.tierSignIn);
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(asFan.trpc.tiers.create.mutate(gold), 'FORBIDDEN', BILLING_TEXTS.tierCreatorsOnly);
    await expectTrpcError(asFan.trpc.tiers.update.mutate({ ...gold, id: tier.id, price: '1' }), 'FORBIDDEN', BILLING_TEXTS.tierCreatorsOnly);
    await expectTrpcError(asFan.trpc.tiers.delete.mutate({ id: tier.id }), 'FORBIDDEN', BILLING_TEXTS.tierCreatorsOnly);
    const asLeo = await clientAs(app, leo.id);
    await expectTrpcError(asLeo.trpc.tiers.update.mutate({ ...gold, id: tier.id, price: '1' }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    await expectTrpcError(asLeo.trpc.tiers.delete.mutate({ id: tier.id }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    expect(await asLeo.trpc.tiers.listMine.query()).toEqual([]);
    const row = await app.deps.db.selectFrom('subscription_tiers').select(['price_cents', 'archived_at']).where('id', '=', tier.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ price_cents: '5000', archived_at: null });
  });

  it('archives a tier with subscribers instead of deleting it: hidden from new fans, kept for the existing one', async () => {
    const ava = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asAva = await clientAs(app, ava.id);
    const tier = await asAva.trpc.tiers.create.mutate(gold);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: ava.id, tierId: tier.id });
    expect((await asAva.trpc.tiers.listMine.query())[0]).toMatchObject({ id: tier.id, activeSubscribers: 1 });
    expect(await asAva.trpc.tiers.delete.mutate({ id: tier.id })).toEqual({ outcome: 'archived', message: BILLING_TEXTS.tierArchived });
    expect((await asAva.trpc.tiers.listMine.query())[0]).toMatchObject({ id: tier.id, activeSubscribers: 1, archivedAt: expect.any(Date) });
    const page = await app.client().trpc.subscriptions.subscribePage.query({ username: ava.username });
    expect(page.tiers).toEqual([]);
    const asFan = await clientAs(app, fan.id);
    expect((await asFan.trpc.subscriptions.mine.query()).map((s) => [s.tier.id, s.status])).toEqual([[tier.id, 'active']]);
    // an archived tier is not edited, and its name is free for a new tier
    await expectTrpcError(asAva.trpc.tiers.update.mutate({ ...gold, id: tier.id }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    await asAva.trpc.tiers.create.mutate(gold);
  });
});
