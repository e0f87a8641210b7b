import { describe, expect, it } from 'vitest';
import { BILLING_TEXTS, COMMENT_TEXTS, MESSAGE_TEXTS, POST_TEXTS } from '../../common/texts';
import { REFUND_TEXTS } from '../../common/payment-texts';
import { SECURITY_TEXTS } from '../../common/security';
import { makePost, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

/**
 * One policy for ids (common/ids.ts): a malformed id is answered exactly like an unknown one
 * (same code, same words), by the procedure's schema, before any service or query runs.
 */
const app = useFileServer();

const UNKNOWN = '00000000-0000-0000-0000-000000000000';
const MALFORMED = ['not-a-uuid', `${UNKNOWN}0`, "1' or '1'='1"];

/** Both ids answer the same, with `code` and `message`; the malformed one reaches no SQL. */
async function sameAsUnknown(call: (id: string) => Promise<unknown>, code: string, message: string) {
  await expectTrpcError(call(UNKNOWN), code, message);
  for (const id of MALFORMED) {
    app.queries.reset();
    const error = await expectTrpcError(call(id), code, message);
    expect((error.data as unknown as { validation?: unknown }).validation ?? null, id).toBeNull();
    expect(app.queries.withoutSession(), id).toEqual([]);
  }
}

describe('a malformed id is an unknown id', () => {
  it('on post, comment and message procedures', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    const asFan = await clientAs(app, fan.id);

    await sameAsUnknown((id) => asFan.trpc.posts.byId.query({ id }), 'NOT_FOUND', POST_TEXTS.notFound);
    await sameAsUnknown((id) => asFan.trpc.posts.like.mutate({ postId: id }), 'NOT_FOUND', POST_TEXTS.notFound);
    await sameAsUnknown((id) => asFan.trpc.comments.list.query({ postId: id }), 'NOT_FOUND', POST_TEXTS.notFound);
    // a reply to a comment that is not there is the caller's mistake (400), known or not
    await expectTrpcError(asFan.trpc.comments.add.mutate({ postId: post.id, text: 'hi', parentId: UNKNOWN }), 'BAD_REQUEST', COMMENT_TEXTS.parentNotFound);
    await expectTrpcError(asFan.trpc.comments.add.mutate({ postId: post.id, text: 'hi', parentId: 'nope' }), 'BAD_REQUEST', COMMENT_TEXTS.parentNotFound);

    await sameAsUnknown((id) => asFan.trpc.messages.edit.mutate({ id, content: 'changed' }), 'NOT_FOUND', MESSAGE_TEXTS.messageNotFound);
    await sameAsUnknown((id) => asFan.trpc.messages.delete.mutate({ id }), 'NOT_FOUND', MESSAGE_TEXTS.messageNotFound);
    await sameAsUnknown((id) => asFan.trpc.messages.since.query({ afterId: id }), 'NOT_FOUND', MESSAGE_TEXTS.messageNotFound);
    // marking unknown messages read changes nothing: malformed ones neither
    expect((await asFan.trpc.messages.markRead.mutate({ ids: [UNKNOWN, 'nope'] })).ids).toEqual([]);
  });

  it('on billing and account procedures', async () => {
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    const key = () => crypto.randomUUID();

    await sameAsUnknown((tierId) => asFan.trpc.subscriptions.subscribe.mutate({ tierId, idempotencyKey: key(), confirmedAmount: '50.00' }), 'NOT_FOUND', BILLING_TEXTS.tierNotFound);
    await sameAsUnknown((id) => asFan.trpc.subscriptions.cancel.mutate({ id }), 'NOT_FOUND', BILLING_TEXTS.subscriptionNotFound);
    await sameAsUnknown((sessionId) => asFan.trpc.security.revokeSession.mutate({ sessionId }), 'NOT_FOUND', SECURITY_TEXTS.sessionNotFound);

    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    const asAdmin = await clientAs(app, admin.id);
    await sameAsUnknown((paymentId) => asAdmin.trpc.payments.adminRefund.mutate({ paymentId, amount: '1.00', idempotencyKey: key() }), 'NOT_FOUND', REFUND_TEXTS.paymentNotFound);
    await sameAsUnknown((id) => asAdmin.trpc.messages.openReport.mutate({ id }), 'NOT_FOUND', MESSAGE_TEXTS.reportNotFound);
  });

  it("keeps other refusals: a missing post id is a form's 'Post ID is required', a bad cursor 'Invalid cursor'", async () => {
    const visitor = app.client();
    const missing = await expectTrpcError(visitor.trpc.posts.byId.query({ id: '' }), 'BAD_REQUEST');
    expect((missing.data as unknown as { validation: { messages: string[] } }).validation.messages).toEqual([POST_TEXTS.idRequired]);
    // not a clock: a cursor refused for its id
    await expectTrpcError(visitor.trpc.posts.feed.query({ cursor: { createdAt: '2026-01-01T00:00:00Z', id: 'nope' } }), 'BAD_REQUEST', 'Invalid cursor');
  });

  it('on the media routes: the same 404 as an unknown id', async () => {
    const visitor = app.client();
    for (const path of ['/media/{id}/original', '/media/messages/{id}', '/exports/{id}/download']) {
      const user = await makeUser(app.deps.db);
      const client = path.startsWith('/exports') ? await clientAs(app, user.id) : visitor;
      const unknown = await client.fetch(path.replace('{id}', UNKNOWN));
      expect(unknown.status, path).toBe(404);
      const unknownBody = await unknown.json();
      for (const id of MALFORMED) {
        const res = await client.fetch(path.replace('{id}', encodeURIComponent(id)));
        expect(res.status, `${path} ${id}`).toBe(404);
        expect(await res.json()).toEqual(unknownBody);
      }
    }
  });
});
