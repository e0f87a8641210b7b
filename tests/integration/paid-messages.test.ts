import { paymentShares } from '../helpers/ledger';
import { paid } from '../helpers/paid';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MessageDto } from '../../common/message-dtos';
import { PAID_MESSAGE_TEXTS as T } from '../../common/paid-message-texts';
import { attachmentPreviewKey, attachmentStoredKeys } from '../../domain/messaging/attachments';
import { deliverMassBatch } from '../../domain/messaging/mass-messages';
import { canMessage } from '../../domain/access/messaging';
import { mayBeMessagedBy } from '../../domain/access/messaging.queries';
import { messageGroupKey } from '../../domain/notifications/notify';
import { sql } from 'kysely';
import sharp from 'sharp';
import { settledAttachment, uploadAttachment, readyAttachment } from '../helpers/attachments';
import { makeSubscription, makeUser } from '../helpers/factories';
import { jpegWithExif } from '../helpers/media-fixtures';
import { useFileServer } from '../helpers/file-server';
import { socketPool } from '../helpers/sockets';
import { clientAs, expectTrpcError } from '../helpers/trpc';

const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);


const unlockPayments = (userId: string) =>
  app.deps.db.selectFrom('payments').select(['id', 'purpose', 'message_id', 'amount_cents', 'creator_id']).where('user_id', '=', userId).where('purpose', '=', 'message_unlock').execute();

describe('pay-per-view messages', () => {
  it('the recipient sees the text and a locked file until one confirmed charge opens it (20 presses, one charge); the sender sees bought; nobody else ever gets the file', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const stranger = await makeUser(app.deps.db);
    const asCreator = await clientAs(app, creator.id);
    const asFan = await clientAs(app, fan.id);
    const asStranger = await clientAs(app, stranger.id);
    const attachmentId = await readyAttachment(app, creator.id);
    const sent = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'A new set for you', attachmentId, price: '49.9', clientId: 'ppv-1' });
    expect(sent).toMatchObject({ price: '49.90', unlocked: false, locked: false });
    expect(sent.attachment?.url).toBeTruthy();

    const thread = await asFan.trpc.messages.thread.query({ username: creator.username });
    const locked = thread.messages.find((m) => m.id === sent.id)!;
    expect(locked).toMatchObject({ content: 'A new set for you', price: '49.90', locked: true, unlocked: false });
    expect(locked.attachment).toMatchObject({ kind: 'image', url: null });
    const mediaUrl = `/media/messages/${attachmentId}`;
    expect((await asFan.fetch(mediaUrl)).status).toBe(403);
    expect((await asStranger.fetch(mediaUrl)).status).toBe(403);
    expect((await app.client().fetch(mediaUrl)).status).toBe(403);
    expect((await asCreator.fetch(mediaUrl)).status).toBe(200);

    // refusals: the wrong amount, someone else's message, the sender, a free message
    await expectTrpcError(asFan.trpc.messages.unlock.mutate({ messageId: sent.id, confirmedAmount: '10', idempotencyKey: randomUUID() }), 'CONFLICT', T.amountMismatch);
    await expectTrpcError(asStranger.trpc.messages.unlock.mutate({ messageId: sent.id, confirmedAmount: '49.90', idempotencyKey: randomUUID() }), 'NOT_FOUND', T.messageNotFound);
    await expectTrpcError(asCreator.trpc.messages.unlock.mutate({ messageId: sent.id, confirmedAmount: '49.90', idempotencyKey: randomUUID() }), 'FORBIDDEN', T.ownMessage);
    const free = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'hi', clientId: 'free-1' });
    await expectTrpcError(asFan.trpc.messages.unlock.mutate({ messageId: free.id, confirmedAmount: '49.90', idempotencyKey: randomUUID() }), 'CONFLICT', T.notForSale);
    // a fan cannot put a price on a message
    const fanFile = await readyAttachment(app, fan.id);
    await expectTrpcError(asFan.trpc.messages.send.mutate({ username: creator.username, attachmentId: fanFile, price: '20', clientId: 'fan-ppv' }), 'FORBIDDEN', T.creatorsOnly);
    expect(await unlockPayments(fan.id)).toEqual([]);

    const fanTab2 = await sockets.open(app, fan);
    const creatorTab = await sockets.open(app, creator);
    const fanHeard: MessageDto[] = [];
    const creatorHeard: MessageDto[] = [];
    fanTab2.on('message:updated', (e: { message: MessageDto }) => fanHeard.push(e.message));
    creatorTab.on('message:updated', (e: { message: MessageDto }) => creatorHeard.push(e.message));

    const key = randomUUID();
    const input = { messageId: sent.id, confirmedAmount: '49.90', idempotencyKey: key };
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => asFan.trpc.messages.unlock.mutate(i % 2 ? input : { ...input, idempotencyKey: randomUUID() })));
    expect(new Set(results.map((r) => paid(r).paymentId)).size).toBe(1);
    const rows = await unlockPayments(fan.id);
    expect(rows).toEqual([{ id: paid(results[0]!).paymentId, purpose: 'message_unlock', message_id: sent.id, amount_cents: '4990', creator_id: creator.id }]);
    // the ledger split it like any charge
    const split = await paymentShares(app.deps.db, rows[0]!.id);
    expect(split.platform + (split.creator ?? 0)).toBe(4990);
    expect(split.cash).toBe(4990);

    expect((await asFan.fetch(mediaUrl)).status).toBe(200);
    expect((await asStranger.fetch(mediaUrl)).status).toBe(403);
    await expect.poll(() => fanHeard.find((m) => m.id === sent.id && !m.locked)?.attachment?.url ?? null).toBeTruthy();
    await expect.poll(() => creatorHeard.find((m) => m.id === sent.id)?.unlocked ?? false).toBe(true);
    const after = (await asFan.trpc.messages.thread.query({ username: creator.username })).messages.find((m) => m.id === sent.id)!;
    expect(after).toMatchObject({ locked: false, unlocked: true });
    const senderView = (await asCreator.trpc.messages.thread.query({ username: fan.username })).messages.find((m) => m.id === sent.id)!;
    expect(senderView.unlocked).toBe(true);

    // a refund takes it back
    await app.deps.db
      .insertInto('payments')
      .values({ user_id: fan.id, creator_id: creator.id, tier_id: null, subscription_id: null, amount_cents: -49_90, provider: 'builtin', provider_ref: null, status: 'succeeded', kind: 'refund', reverses_payment_id: rows[0]!.id, purpose: 'message_unlock', description: 'refund', idempotency_key: null })
      .execute();
    expect((await asFan.fetch(mediaUrl)).status).toBe(403);
    expect((await asFan.trpc.messages.thread.query({ username: creator.username })).messages.find((m) => m.id === sent.id)).toMatchObject({ locked: true });
  });
});

describe('a pay-per-view file before it is bought', () => {
  it('shows its recipient the worker\'s blurred preview, never the file; nobody outside the message gets either', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const stranger = await makeUser(app.deps.db);
    const [asCreator, asFan, asStranger] = await Promise.all([clientAs(app, creator.id), clientAs(app, fan.id), clientAs(app, stranger.id)]);
    const upload = await uploadAttachment(asCreator, 'beach.jpg', await jpegWithExif(400, 300));
    expect(upload.status).toBe(201);
    const attachmentId = upload.json.attachment!.id;
    const row = await settledAttachment(app, attachmentId);
    expect(row.status).toBe('ready');
    const sent = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'Unlock me', attachmentId, price: '25', clientId: 'preview-1' });

    const locked = (await asFan.trpc.messages.thread.query({ username: creator.username })).messages.find((m) => m.id === sent.id)!;
    expect(locked.attachment).toMatchObject({ url: null, previewUrl: `/media/messages/${attachmentId}/preview` });
    const preview = await asFan.fetch(locked.attachment!.previewUrl!);
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('image/jpeg');
    expect(preview.headers.get('cache-control')).toMatch(/^private/);
    const previewBytes = Buffer.from(await preview.arrayBuffer());
    const file = Buffer.from(await (await asCreator.fetch(`/media/messages/${attachmentId}`)).arrayBuffer());
    expect((await sharp(previewBytes).metadata()).format).toBe('jpeg');
    expect(previewBytes.equals(file)).toBe(false);
    expect((await asFan.fetch(`/media/messages/${attachmentId}`)).status).toBe(403);
    expect((await asStranger.fetch(locked.attachment!.previewUrl!)).status).toBe(403);
    expect((await app.client().fetch(locked.attachment!.previewUrl!)).status).toBe(403);
    // the sender sees the file itself, with no preview in the way
    const own = (await asCreator.trpc.messages.thread.query({ username: fan.username })).messages.find((m) => m.id === sent.id)!;
    expect(own.attachment?.previewUrl).toBeUndefined();
    // the preview is stored beside the file, and goes with it
    expect(await app.deps.storage.exists(attachmentPreviewKey(row.storage_key!))).toBe(true);
    expect(attachmentStoredKeys(row)).toContain(attachmentPreviewKey(row.storage_key!));
  });
});

async function massSetup(fans: number) {
  const creator = await makeUser(app.deps.db, { isCreator: true });
  const subscribers = [];
  for (let i = 0; i < fans; i++) {
    const fan = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
    subscribers.push(fan);
  }
  return { creator, subscribers };
}

const copiesOf = (massMessageId: string) =>
  app.deps.db.selectFrom('messages').select(['recipient_id']).where('mass_message_id', '=', massMessageId).execute();

describe('messages to many', () => {
  it('reaches each chosen fan once in their own thread, skips blocks and private profiles, and counts sent, read, unlocked and revenue', async () => {
    const { creator, subscribers } = await massSetup(4);
    const [a, b, blocker, priv] = subscribers as [typeof subscribers[number], typeof subscribers[number], typeof subscribers[number], typeof subscribers[number]];
    const lapsed = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: lapsed.id, creatorId: creator.id, status: 'expired', periodEnd: new Date(Date.now() - 86400_000) });
    const outsider = await makeUser(app.deps.db);
    await app.deps.db.insertInto('user_blocks').values({ blocker_id: blocker.id, blocked_id: creator.id }).execute();
    await app.deps.db.insertInto('privacy_settings').values({ user_id: priv.id, profile_visibility: 'private' }).onConflict((oc) => oc.column('user_id').doUpdateSet({ profile_visibility: 'private' })).execute();
    // the SQL twin agrees with canMessage for each of them
    for (const u of [a, b, blocker, priv, lapsed, outsider]) {
      const row = await sql<{ ok: boolean }>`select ${mayBeMessagedBy(creator.id, 'x.id')} as ok from (select ${u.id}::uuid as id) x`.execute(app.deps.db);
      expect(row.rows[0]!.ok).toBe(await canMessage(app.deps.db, creator.id, u.id));
    }

    const asCreator = await clientAs(app, creator.id);
    const counts = await asCreator.trpc.massMessages.audiences.query();
    expect(counts).toMatchObject({ active: 2, expired: 1, buyers: 0 });
    const attachmentId = await readyAttachment(app, creator.id);
    const input = { audience: 'active' as const, content: 'Something new for you', attachmentId, price: '30', clientId: 'mass-1' };
    const [first, second] = await Promise.all([asCreator.trpc.massMessages.create.mutate(input), asCreator.trpc.massMessages.create.mutate(input)]);
    expect(second.id).toBe(first.id);
    expect(await app.deps.db.selectFrom('mass_messages').select('id').where('creator_id', '=', creator.id).execute()).toHaveLength(1);
    await app.drain('mass-messages');
    await app.drain('notifications');
    expect((await copiesOf(first.id)).map((r) => r.recipient_id).sort()).toEqual([a.id, b.id].sort());

    // each fan's own thread; one unlocks
    const asA = await clientAs(app, a.id);
    const asB = await clientAs(app, b.id);
    const inA = (await asA.trpc.messages.thread.query({ username: creator.username })).messages;
    expect(inA).toHaveLength(1);
    expect(inA[0]).toMatchObject({ content: 'Something new for you', locked: true, price: '30.00', massMessageId: first.id });
    await asA.trpc.messages.unlock.mutate({ messageId: inA[0]!.id, confirmedAmount: '30.00', idempotencyKey: randomUUID() });
    await asA.trpc.messages.markRead.mutate({ ids: [inA[0]!.id] });
    expect((await asA.fetch(`/media/messages/${attachmentId}`)).status).toBe(200);
    expect((await asB.fetch(`/media/messages/${attachmentId}`)).status).toBe(403);
    const outsiderClient = await clientAs(app, outsider.id);
    expect((await outsiderClient.fetch(`/media/messages/${attachmentId}`)).status).toBe(403);

    const list = await asCreator.trpc.massMessages.list.query({});
    expect(list.items).toEqual([expect.objectContaining({ id: first.id, status: 'sent', sent: 2, read: 1, unlocked: 1, revenue: '30.00' })]);

    // another creator's list and audiences are their own; a fan has none
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    expect((await asOther.trpc.massMessages.list.query({})).items).toEqual([]);
    await expectTrpcError(asA.trpc.massMessages.list.query({}), 'FORBIDDEN');
    await expectTrpcError(asA.trpc.massMessages.create.mutate({ ...input, clientId: 'fan' }), 'FORBIDDEN');
    // another creator's file or tier is refused
    await expectTrpcError(asOther.trpc.massMessages.create.mutate({ audience: 'active', attachmentId, clientId: 'steal' }), 'BAD_REQUEST');
    const tier = await app.deps.db.selectFrom('subscription_tiers').select('id').where('creator_id', '=', creator.id).executeTakeFirstOrThrow();
    await expectTrpcError(asOther.trpc.massMessages.create.mutate({ audience: 'tier', tierId: tier.id, content: 'hi', clientId: 'tier' }), 'NOT_FOUND', T.tierNotFound);

    // win back reaches only the lapsed fan
    const winBack = await asCreator.trpc.massMessages.create.mutate({ audience: 'expired', content: 'Come back', clientId: 'mass-2' });
    await app.drain('mass-messages');
    expect((await copiesOf(winBack.id)).map((r) => r.recipient_id)).toEqual([lapsed.id]);
    // the buyers: a's unlock
    const buyers = await asCreator.trpc.massMessages.create.mutate({ audience: 'buyers', content: 'Thanks', clientId: 'mass-3' });
    await app.drain('mass-messages');
    expect((await copiesOf(buyers.id)).map((r) => r.recipient_id)).toEqual([a.id]);
  });

  it('a delivery killed after its first batch resumes from its cursor without doubling; two runs at once write each copy once; each fan is told per their settings', async () => {
    const { creator, subscribers } = await massSetup(7);
    // one fan turned messages off in the app and for push; another has an unread message row from the creator already
    const [quietFan, toldBefore] = subscribers as [(typeof subscribers)[number], (typeof subscribers)[number]];
    await app.deps.db.insertInto('notification_preferences').values({ user_id: quietFan.id, kind: 'message', in_app: false, email: false, push: false }).execute();
    await app.deps.db
      .insertInto('notifications')
      .values({ user_id: toldBefore.id, kind: 'message', actor_id: creator.id, subject_type: 'user', subject_id: creator.id, group_key: messageGroupKey(creator.id) })
      .execute();
    const { id } = await app.deps.db
      .insertInto('mass_messages')
      .values({ creator_id: creator.id, audience: 'active', content: 'Hello all', client_id: 'crash' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const now = new Date();
    // first batch commits, then the worker dies (no next job queued)
    const firstBatch = await deliverMassBatch(app.deps.db, id, now, 3);
    expect(firstBatch?.messages).toHaveLength(3);
    expect(firstBatch?.done).toBe(false);
    // the retry, twice at once, runs to the end
    const run = async () => {
      for (;;) {
        const batch = await deliverMassBatch(app.deps.db, id, now, 3);
        if (!batch || batch.done) return;
      }
    };
    await Promise.all([run(), run()]);
    const copies = await copiesOf(id);
    expect(copies.map((c) => c.recipient_id).sort()).toEqual(subscribers.map((s) => s.id).sort());
    const row = await app.deps.db.selectFrom('mass_messages').select(['status', 'recipients_total']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'sent', recipients_total: 7 });
    // each fan's chat list shows the creator once
    const conv = await app.deps.db.selectFrom('conversations').select('user_id').where('partner_id', '=', creator.id).execute();
    expect(conv).toHaveLength(7);
    // told in each batch's two statements as notify() tells one: no row for the fan who turned it off, the unread row counts on
    const told = await app.deps.db.selectFrom('notifications').select(['id', 'user_id', 'actor_count']).where('group_key', '=', messageGroupKey(creator.id)).execute();
    expect(new Map(told.map((t) => [t.user_id, t.actor_count]))).toEqual(
      new Map(subscribers.filter((s) => s.id !== quietFan.id).map((s) => [s.id, s.id === toldBefore.id ? 2 : 1])),
    );
    // and each row's delivery is in the outbox, once: the one job each batch's commit carries for its rows
    const deliveries = await app.deps.db.selectFrom('outbox').select(['job_id', 'data']).where('name', '=', 'deliver-notifications').where('job_id', 'like', `notifications-mass-message-${id}-%`).execute();
    const delivered = deliveries.flatMap((d) => (d.data as { notificationIds: string[] }).notificationIds);
    expect(delivered.sort()).toEqual(told.map((t) => t.id).sort());
  });
});
