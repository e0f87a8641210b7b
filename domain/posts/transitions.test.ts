import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PostStatus } from '../../common/enums';
import type { Realtime } from '../../core/realtime/realtime';
import { makePost, makeUser } from '../../tests/helpers/factories';
import { createTestDb, type TestDatabase } from '../../tests/helpers/test-db';
import { claimRun } from '../processing/runs.queries';
import { applyPostEffects, type PostEffectDeps } from './effects';
import { completeProcessing, createProcessingPost, deletePost, failPost, publishDraft, retryPost } from './transitions';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t?.destroy();
});

const postRow = (id: string) =>
  t.db.selectFrom('posts').select(['status', 'target_status', 'published_at', 'failure_reason', 'media_kind']).where('id', '=', id).executeTakeFirst();

const creator = () => makeUser(t.db, { isCreator: true });
const postIn = async (creatorId: string, status: PostStatus) => (await makePost(t.db, null, { creatorId, status })).id;

/** A processing post of `creatorId` as an upload makes it, aiming at `targetStatus`. */
async function upload(creatorId: string, targetStatus: 'draft' | 'published') {
  const id = randomUUID();
  const effects = await createProcessingPost(t.db, {
    id,
    creatorId,
    title: null,
    text: null,
    hashtags: [],
    isPremium: false,
    isNsfw: false,
    targetStatus,
    mediaKind: 'image',
    originalFilename: 'a.png',
    optimisticId: 'card-1',
  });
  await t.db.insertInto('media_files').values({ post_id: id, variant: 'original', storage_key: `posts/${id}/upload.png`, content_type: 'application/octet-stream', byte_size: 3 }).execute();
  return { id, effects };
}

const file = (postId: string, runId: string) => ({
  variant: 'original' as const,
  storageKey: `posts/${postId}/${runId}/original.webp`,
  contentType: 'image/webp',
  byteSize: 10,
  width: 4,
  height: 4,
  durationSeconds: null,
});

async function runOf(postId: string) {
  const runId = randomUUID();
  expect((await claimRun(t.db, 'posts', postId, runId, 20_000)).outcome).toBe('claimed');
  return runId;
}

describe('the post lifecycle: each change from the states it starts from, refused from others', () => {
  it('an upload becomes a processing post, to be queued; processing ends published with its published_at and the creator and feed told', async () => {
    const me = await creator();
    const { id, effects } = await upload(me.id, 'published');
    expect(await postRow(id)).toMatchObject({ status: 'processing', published_at: null });
    expect(effects).toEqual({ events: [], jobs: [], process: [{ postId: id, mediaKind: 'image' }] });

    // a run that does not hold the post writes nothing
    expect(await completeProcessing(t.db, { postId: id, runId: randomUUID(), mediaKind: 'image', files: [file(id, 'x')] })).toBeNull();
    expect((await postRow(id))?.status).toBe('processing');

    const runId = await runOf(id);
    const done = await completeProcessing(t.db, { postId: id, runId, mediaKind: 'image', files: [file(id, runId)] });
    expect(done).toMatchObject({ status: 'published', previousKeys: [`posts/${id}/upload.png`] });
    expect(done!.effects.events).toEqual([{ kind: 'published', post: { postId: id, creatorId: me.id, optimisticId: 'card-1' }, creatorVisibility: 'public' }]);
    const row = await postRow(id);
    expect(row?.status).toBe('published');
    expect(row?.published_at).toBeInstanceOf(Date);
    const keys = await t.db.selectFrom('media_files').select('storage_key').where('post_id', '=', id).execute();
    expect(keys).toEqual([{ storage_key: `posts/${id}/${runId}/original.webp` }]);

    // finished: a second completion, a failure or a retry change nothing
    expect(await completeProcessing(t.db, { postId: id, runId, mediaKind: 'image', files: [file(id, runId)] })).toBeNull();
    expect(await failPost(t.db, id, 'late')).toBeNull();
    expect(await retryPost(t.db, id)).toBeNull();
    expect(await postRow(id)).toEqual(row);
  });

  it('processing aimed at a draft ends a draft without a published_at, and only the creator hears draft-ready', async () => {
    const me = await creator();
    const { id } = await upload(me.id, 'draft');
    const runId = await runOf(id);
    const done = await completeProcessing(t.db, { postId: id, runId, mediaKind: 'image', files: [file(id, runId)] });
    expect(done?.status).toBe('draft');
    expect(done?.effects.events).toEqual([{ kind: 'draft-ready', post: { postId: id, creatorId: me.id, optimisticId: 'card-1' } }]);
    expect(await postRow(id)).toMatchObject({ status: 'draft', published_at: null });
  });

  it('fails a processing post once, with its reason; the creator retries it (theirs only) back to processing, reason cleared', async () => {
    const me = await creator();
    const other = await creator();
    const { id } = await upload(me.id, 'published');

    const failed = await failPost(t.db, id, 'That file is damaged');
    expect(failed?.events).toEqual([{ kind: 'failed', post: { postId: id, creatorId: me.id, optimisticId: 'card-1' }, reason: 'That file is damaged' }]);
    expect(await postRow(id)).toMatchObject({ status: 'failed', failure_reason: 'That file is damaged' });
    expect(await failPost(t.db, id, 'again')).toBeNull();
    expect((await postRow(id))?.failure_reason).toBe('That file is damaged');
    // a failed post cannot finish: it must be retried first
    expect(await completeProcessing(t.db, { postId: id, runId: randomUUID(), mediaKind: 'image', files: [file(id, 'y')] })).toBeNull();

    expect(await retryPost(t.db, id, { creatorId: other.id })).toBeNull();
    expect((await postRow(id))?.status).toBe('failed');
    const retried = await retryPost(t.db, id, { creatorId: me.id });
    expect(retried).toEqual({ events: [], jobs: [], process: [{ postId: id, mediaKind: 'image' }] });
    expect(await postRow(id)).toMatchObject({ status: 'processing', failure_reason: null });
    expect(await retryPost(t.db, id, { creatorId: me.id })).toBeNull();
  });

  it('refuses to fail or retry a post that is not processing or failed', async () => {
    const me = await creator();
    for (const status of ['draft', 'published'] as const) {
      const id = await postIn(me.id, status);
      const before = await postRow(id);
      expect(await failPost(t.db, id, 'no')).toBeNull();
      expect(await retryPost(t.db, id)).toBeNull();
      expect(await postRow(id)).toEqual(before);
    }
  });

  it('publishes only the caller\'s own draft, stamping published_at once: a second publish is refused and keeps the first time', async () => {
    const me = await creator();
    const other = await creator();
    const draft = await postIn(me.id, 'draft');
    expect(await publishDraft(t.db, other.id, draft)).toBeNull();
    expect((await postRow(draft))?.status).toBe('draft');

    const effects = await publishDraft(t.db, me.id, draft);
    expect(effects?.events).toEqual([{ kind: 'published', post: { postId: draft, creatorId: me.id, optimisticId: null }, creatorVisibility: 'public' }]);
    const first = await postRow(draft);
    expect(first).toMatchObject({ status: 'published', target_status: 'published' });
    expect(first?.published_at).toBeInstanceOf(Date);

    expect(await publishDraft(t.db, me.id, draft)).toBeNull();
    expect((await postRow(draft))?.published_at).toEqual(first?.published_at);

    for (const status of ['processing', 'failed'] as const) {
      const id = await postIn(me.id, status);
      expect(await publishDraft(t.db, me.id, id)).toBeNull();
      expect(await postRow(id)).toMatchObject({ status, published_at: null });
    }
  });

  it('deletes the creator\'s own post in any state with its files\' outbox job and post:deleted; nobody else\'s, and only once', async () => {
    const me = await creator();
    const other = await creator();
    for (const status of ['processing', 'failed', 'draft', 'published'] as const) {
      const made = await makePost(t.db, null, { creatorId: me.id, status });
      expect(await deletePost(t.db, other.id, made.id)).toBeNull();
      expect(await postRow(made.id)).toBeDefined();

      const effects = await deletePost(t.db, me.id, made.id);
      expect(effects?.events).toEqual([{ kind: 'deleted', postId: made.id, creatorId: me.id }]);
      expect(effects?.jobs).toEqual([
        expect.objectContaining({ queue: 'maintenance', name: 'delete-post-files', jobId: `delete-post-files-${made.id}`, data: { postId: made.id, keys: expect.arrayContaining(Object.values(made.keys)) } }),
      ]);
      expect(await postRow(made.id)).toBeUndefined();
      const outbox = await t.db.selectFrom('outbox').select('name').where('job_id', '=', `delete-post-files-${made.id}`).execute();
      expect(outbox).toEqual([{ name: 'delete-post-files' }]);
      expect(await deletePost(t.db, me.id, made.id)).toBeNull();
    }
  });
});

describe('applyPostEffects: who hears a change, after the commit', () => {
  it('sends each event to its rooms: a public creator\'s publication to the feed and the creator, a deletion but to the deleting tab', async () => {
    const sent: unknown[][] = [];
    const realtime = {
      toRooms: (...args: unknown[]) => sent.push(['rooms', ...args]),
      toUser: (...args: unknown[]) => sent.push(['user', ...args]),
    } as unknown as Realtime;
    const deps = { realtime, queues: {}, log: console, config: { REDIS_COMMAND_TIMEOUT_MS: 1000 }, socketId: 'tab-1' } as unknown as PostEffectDeps;
    const post = { postId: 'p1', creatorId: 'c1', optimisticId: 'o1' };
    const result = await applyPostEffects(deps, {
      events: [
        { kind: 'published', post, creatorVisibility: 'public' },
        { kind: 'published', post, creatorVisibility: 'private' },
        { kind: 'failed', post, reason: 'Damaged' },
        { kind: 'deleted', postId: 'p1', creatorId: 'c1' },
      ],
      jobs: [],
      process: [],
    });
    expect(result).toEqual({ unqueued: [] });
    expect(sent).toEqual([
      ['rooms', 'feed', 'post:published', { postId: 'p1', creatorId: 'c1' }, { exceptRooms: ['user:c1'] }],
      ['user', 'c1', 'post:published', { postId: 'p1', creatorId: 'c1', optimisticId: 'o1' }],
      // a private creator's publication: the creator's tabs only
      ['user', 'c1', 'post:published', { postId: 'p1', creatorId: 'c1', optimisticId: 'o1' }],
      ['rooms', 'user:c1', 'post:failed', { postId: 'p1', optimisticId: 'o1', reason: 'Damaged' }],
      ['rooms', ['post:p1', 'user:c1'], 'post:deleted', { postId: 'p1' }, { except: 'tab-1' }],
    ]);
  });
});
