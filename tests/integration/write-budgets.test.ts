import { describe, expect, it } from 'vitest';
import { AVATAR_UPLOAD_PATH } from '../../common/settings';
import { AUTH_TEXTS, SERVER_TEXTS } from '../../common/texts';
import { BUDGETS } from '../../server/auth/write-budgets';
import { makePost, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { useTestServer } from '../helpers/test-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';

const app = useFileServer({ emptyUsers: true });

describe('write budgets (issue 23 item 2)', () => {
  it('a comment flood gets 429 with the words and Retry-After after its budget; another user comments on', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    const flooder = await clientAs(app, (await makeUser(app.deps.db)).id);
    const other = await clientAs(app, (await makeUser(app.deps.db)).id);

    const budget = BUDGETS.comment.user.points;
    for (let i = 0; i < budget; i++) await flooder.trpc.comments.add.mutate({ postId: post.id, text: `spam ${i}` });
    const refused = await expectTrpcError(flooder.trpc.comments.add.mutate({ postId: post.id, text: 'one more' }), 'TOO_MANY_REQUESTS', SERVER_TEXTS.tooManyRequests);
    expect(refused.data).toMatchObject({ httpStatus: 429 });
    const answer = flooder.lastResponse()!;
    expect(answer.status).toBe(429);
    const retryAfter = Number(answer.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(BUDGETS.comment.user.windowSeconds);

    // the refused comment was not written, and someone else on the same address is unaffected
    const stored = await app.deps.db.selectFrom('comments').select('comment_text').where('post_id', '=', post.id).execute();
    expect(stored).toHaveLength(budget);
    expect((await other.trpc.comments.add.mutate({ postId: post.id, text: 'hello' })).comments).toBe(budget + 1);
  });

  it('budgets count per action: a user out of comments still likes', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const post = await makePost(app.deps.db, null, { creatorId: creator.id, kind: null });
    const fan = await clientAs(app, (await makeUser(app.deps.db)).id);
    for (let i = 0; i < BUDGETS.comment.user.points; i++) await fan.trpc.comments.add.mutate({ postId: post.id, text: `c${i}` });
    await expectTrpcError(fan.trpc.comments.add.mutate({ postId: post.id, text: 'over' }), 'TOO_MANY_REQUESTS');
    expect((await fan.trpc.posts.like.mutate({ postId: post.id })).liked).toBe(true);
  });

  it('typing signals have a budget too', async () => {
    const a = await makeUser(app.deps.db);
    const b = await makeUser(app.deps.db);
    const asA = await clientAs(app, a.id);
    for (let i = 0; i < BUDGETS.typing.user.points; i++) await asA.trpc.messages.typing.mutate({ username: b.username });
    await expectTrpcError(asA.trpc.messages.typing.mutate({ username: b.username }), 'TOO_MANY_REQUESTS', SERVER_TEXTS.tooManyRequests);
    expect(asA.lastResponse()!.headers.get('retry-after')).toMatch(/^\d+$/);
  });

  it('sign-in keeps its own words over budget', async () => {
    const visitor = app.client();
    // the attempt limit (AUTH_RATE_LIMIT, 10 a minute per address) answers first, with its words
    for (let i = 0; i < 10; i++) await expectTrpcError(visitor.trpc.auth.signIn.mutate({ email: `nobody${i}@example.com`, password: 'wrong-password' }), 'UNAUTHORIZED');
    await expectTrpcError(visitor.trpc.auth.signIn.mutate({ email: 'again@example.com', password: 'wrong-password' }), 'TOO_MANY_REQUESTS', AUTH_TEXTS.tooManyAttempts);
  });

  it('an HTTP write route (POST /avatar) answers 429 with Retry-After after its budget', async () => {
    const user = await makeUser(app.deps.db);
    const client = await clientAs(app, user.id);
    const other = await clientAs(app, (await makeUser(app.deps.db)).id);
    const junk = () => ({ method: 'POST', body: new Uint8Array([1, 2, 3, 4]), headers: { 'content-type': 'application/octet-stream' } });
    for (let i = 0; i < BUDGETS.avatar.user.points; i++) expect((await client.fetch(AVATAR_UPLOAD_PATH, junk())).status).toBe(415);
    const refused = await client.fetch(AVATAR_UPLOAD_PATH, junk());
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toEqual({ error: { code: 'TOO_MANY_REQUESTS', message: SERVER_TEXTS.tooManyRequests } });
    expect((await other.fetch(AVATAR_UPLOAD_PATH, junk())).status).toBe(415);
  });
});

describe('the address budget (WRITE_BUDGET_SCALE 0.1: a comment a minute per user, 10 per address)', () => {
  const small = useTestServer({ workerQueues: [], env: { WRITE_BUDGET_SCALE: '0.1' } });

  it('refuses the next user on the same address once the address has spent its budget', async () => {
    const creator = await makeUser(small.deps.db, { isCreator: true });
    const post = await makePost(small.deps.db, null, { creatorId: creator.id, kind: null });
    const perAddress = Math.round(BUDGETS.comment.ip.points * 0.1);
    const first = await clientAs(small, (await makeUser(small.deps.db)).id);
    await first.trpc.comments.add.mutate({ postId: post.id, text: 'fan 0' });
    // over their own budget; a refused attempt counts against the address too
    await expectTrpcError(first.trpc.comments.add.mutate({ postId: post.id, text: 'again' }), 'TOO_MANY_REQUESTS');
    for (let i = 2; i < perAddress; i++) {
      const fan = await clientAs(small, (await makeUser(small.deps.db)).id);
      await fan.trpc.comments.add.mutate({ postId: post.id, text: `fan ${i}` });
    }
    const late = await clientAs(small, (await makeUser(small.deps.db)).id);
    await expectTrpcError(late.trpc.comments.add.mutate({ postId: post.id, text: 'first of mine' }), 'TOO_MANY_REQUESTS', SERVER_TEXTS.tooManyRequests);
    expect(late.lastResponse()!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
