import { describe, expect, it } from 'vitest';
import { makePost, makeUser, type MadeUser } from '../../../tests/helpers/factories';
import { useFileServer } from '../../../tests/helpers/file-server';
import { clientAs, expectTrpcError } from '../../../tests/helpers/trpc';

// every test starts from no users at all
const app = useFileServer({ emptyUsers: true });

const creator = (visibility: 'public' | 'private' = 'public') => makeUser(app.deps.db, { isCreator: true, visibility });
const post = (c: MadeUser, opts: { status?: 'draft' | 'published'; isPremium?: boolean } = {}) =>
  makePost(app.deps.db, null, { creatorId: c.id, kind: null, ...opts });

describe('comments.add', () => {
  it('adds a comment and a reply as plain text, trimmed, with the author and the new count', async () => {
    const alice = await creator();
    const p = await post(alice);
    const bob = await makeUser(app.deps.db);
    const asBob = await clientAs(app, bob.id);

    const text = '  <img src=x onerror=alert(1)> nice & "quoted"  ';
    const first = await asBob.trpc.comments.add.mutate({ postId: p.id, text });
    expect(first).toEqual({
      comments: 1,
      comment: {
        id: expect.any(String),
        postId: p.id,
        parentId: null,
        text: '<img src=x onerror=alert(1)> nice & "quoted"',
        createdAt: expect.any(Date),
        author: { id: bob.id, username: bob.username, displayName: expect.any(String), avatarUrl: null },
      },
    });
    const asAlice = await clientAs(app, alice.id);
    const reply = await asAlice.trpc.comments.add.mutate({ postId: p.id, text: 'Thanks!', parentId: first.comment.id });
    expect(reply.comment.parentId).toBe(first.comment.id);
    expect(reply.comments).toBe(2);

    const stored = await app.deps.db.selectFrom('comments').select('comment_text').where('id', '=', first.comment.id).executeTakeFirstOrThrow();
    expect(stored.comment_text).toBe('<img src=x onerror=alert(1)> nice & "quoted"');
    expect((await asBob.trpc.posts.byId.query({ id: p.id })).counts.comments).toBe(2);
  });

  it('refuses empty and over-long text, and visitors with the spec words', async () => {
    const alice = await creator();
    const p = await post(alice);
    const asBob = await clientAs(app, (await makeUser(app.deps.db)).id);
    await expectTrpcError(asBob.trpc.comments.add.mutate({ postId: p.id, text: '   \n\t ' }), 'BAD_REQUEST', 'Comment cannot be empty');
    await expectTrpcError(asBob.trpc.comments.add.mutate({ postId: p.id, text: '' }), 'BAD_REQUEST', 'Comment cannot be empty');
    await expectTrpcError(
      asBob.trpc.comments.add.mutate({ postId: p.id, text: 'x'.repeat(2001) }),
      'BAD_REQUEST',
      'Comment must be at most 2000 characters',
    );
    expect((await asBob.trpc.comments.add.mutate({ postId: p.id, text: ` ${'x'.repeat(2000)} ` })).comment.text).toHaveLength(2000);
    await expectTrpcError(app.client().trpc.comments.add.mutate({ postId: p.id, text: 'hi' }), 'UNAUTHORIZED', 'Please sign in to comment');
  });

  it("refuses a parent from another post, an unknown parent, and posts the user may not see", async () => {
    const alice = await creator();
    const hidden = await creator('private');
    const p = await post(alice);
    const other = await post(alice);
    const draft = await post(alice, { status: 'draft' });
    const privatePost = await post(hidden);
    const asBob = await clientAs(app, (await makeUser(app.deps.db)).id);
    const elsewhere = await asBob.trpc.comments.add.mutate({ postId: other.id, text: 'on the other post' });

    for (const parentId of [elsewhere.comment.id, '00000000-0000-0000-0000-000000000000', 'junk']) {
      await expectTrpcError(
        asBob.trpc.comments.add.mutate({ postId: p.id, text: 'reply', parentId }),
        'BAD_REQUEST',
        'The comment you are replying to does not exist',
      );
    }
    for (const id of [draft.id, privatePost.id]) {
      await expectTrpcError(asBob.trpc.comments.add.mutate({ postId: id, text: 'hi' }), 'NOT_FOUND', 'Post not found');
      await expectTrpcError(asBob.trpc.comments.list.query({ postId: id }), 'NOT_FOUND', 'Post not found');
    }
    // the owner may comment on their own draft
    const asAlice = await clientAs(app, alice.id);
    expect((await asAlice.trpc.comments.add.mutate({ postId: draft.id, text: 'note to self' })).comments).toBe(1);
    expect(await app.deps.db.selectFrom('comments').select('post_id').execute()).toHaveLength(2);
  });

  it('lets a non-subscriber comment on a premium post (its text and counts are public)', async () => {
    const alice = await creator();
    const p = await post(alice, { isPremium: true });
    const asBob = await clientAs(app, (await makeUser(app.deps.db)).id);
    expect((await asBob.trpc.comments.add.mutate({ postId: p.id, text: 'want' })).comments).toBe(1);
  });
});

describe('comments.list', () => {
  it('lists every comment oldest first with authors and parent ids, for visitors too', async () => {
    const alice = await creator();
    const p = await post(alice);
    const other = await post(alice);
    const bob = await makeUser(app.deps.db);
    const asBob = await clientAs(app, bob.id);
    const asAlice = await clientAs(app, alice.id);
    const a = await asBob.trpc.comments.add.mutate({ postId: p.id, text: 'first' });
    const b = await asAlice.trpc.comments.add.mutate({ postId: p.id, text: 'reply', parentId: a.comment.id });
    const c = await asBob.trpc.comments.add.mutate({ postId: p.id, text: 'second' });
    await asBob.trpc.comments.add.mutate({ postId: other.id, text: 'elsewhere' });

    const list = await app.client().trpc.comments.list.query({ postId: p.id });
    expect(list.map((x) => [x.id, x.parentId, x.text, x.author.username])).toEqual([
      [a.comment.id, null, 'first', bob.username],
      [b.comment.id, a.comment.id, 'reply', alice.username],
      [c.comment.id, null, 'second', bob.username],
    ]);
    expect(await app.client().trpc.comments.list.query({ postId: (await post(alice)).id })).toEqual([]);
    await expectTrpcError(app.client().trpc.comments.list.query({ postId: 'nope' }), 'NOT_FOUND', 'Post not found');
  });
});
