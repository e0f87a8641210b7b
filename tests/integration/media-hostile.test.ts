import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { makeUser, type MadeUser } from '../helpers/factories';
import { hostileMediaFiles, makeAudio, makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';

// A creator uploads a "video" or an "audio file" that is really an HLS playlist, a DASH manifest
// or an ffconcat list naming another creator's premium (or draft) original in storage, bare or
// behind a fake MP4 box / MPEG frame / Ogg page / RIFF or EBML header that the byte sniffer
// accepts. An ffmpeg left to probe would read the other creator's file and publish it as this
// post. Each must fail with a reason the creator can read, and leave nothing of the other post.

let app: TestServer;
let work: string;
let mallory: MadeUser;
let asMallory: TestClient;
/** absolute paths, on disk, of the victim's processed originals: what an attacker would guess */
const targets = { video: '', audio: '' };

const postRow = (id: string) => app.deps.db.selectFrom('posts').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const settled = (id: string) =>
  waitFor(async () => {
    const row = await postRow(id);
    return row.status !== 'processing' ? row : null;
  }, 60_000, `post ${id} to be processed`);

beforeAll(async () => {
  // one creator uploads all 42 hostile files within a minute: more than a person's upload budget
  app = await startTestServer({ env: { WRITE_BUDGET_SCALE: '10' } });
  work = await mkdtemp(path.join(tmpdir(), 'media-hostile-'));
  const vera = await makeUser(app.deps.db, { isCreator: true, username: 'vera' });
  const asVera = await clientAs(app, vera.id);
  mallory = await makeUser(app.deps.db, { isCreator: true, username: 'mallory' });
  asMallory = await clientAs(app, mallory.id);

  const video = await readFile(await makeVideo(work, { seconds: 2, width: 320, height: 240 }));
  const premium = await tusUpload(asVera, video, uploadFields('premium.mp4', { isPaidContent: true }));
  const audio = await readFile(await makeAudio(work, 'draft.mp3', 2));
  const draft = await tusUpload(asVera, audio, uploadFields('draft.mp3', { status: 'draft' }));
  expect(await settled(premium.postId)).toMatchObject({ status: 'published', is_premium: true });
  expect(await settled(draft.postId)).toMatchObject({ status: 'draft' });
  const storageRoot = path.resolve(app.deps.config.STORAGE_DIR);
  const keyOf = (postId: string) =>
    app.deps.db.selectFrom('media_files').select('storage_key').where('post_id', '=', postId).where('variant', '=', 'original').executeTakeFirstOrThrow();
  targets.video = path.join(storageRoot, (await keyOf(premium.postId)).storage_key);
  targets.audio = path.join(storageRoot, (await keyOf(draft.postId)).storage_key);
  // the attack only means something if the paths are right: the files are there
  expect((await readFile(targets.video)).length).toBeGreaterThan(1000);
  expect((await readFile(targets.audio)).length).toBeGreaterThan(1000);
}, 120_000);
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

// the files themselves are made in each test, once the target paths are known
const cases = hostileMediaFiles('/placeholder').map(({ name, category }) => ({ name, category }));

describe('a video or audio upload that points ffmpeg at other files', () => {
  it('covers every list, extension and disguise', () => {
    expect(cases).toHaveLength(3 * 7 * 2);
  });

  it.each(cases)('$name fails with a clear reason and leaves nothing of the other post', async ({ name, category }) => {
    const file = hostileMediaFiles(targets[category]).find((f) => f.name === name)!;
    const ext = path.extname(name).slice(1);
    const { postId } = await tusUpload(asMallory, file.bytes, uploadFields(name));

    const post = await settled(postId);
    expect(post.status, `${name} was ${post.status === 'failed' ? `refused: ${post.failure_reason}` : 'processed'}`).toBe('failed');
    expect(post.failure_reason).toBe(UPLOAD_TEXTS.pointsToOtherFiles(category === 'video' ? 'video' : 'audio file'));
    expect(post.published_at).toBeNull();
    // nothing was made: the post's only file is the upload itself, byte for byte
    const rows = await app.deps.db.selectFrom('media_files').select(['variant', 'storage_key', 'content_type']).where('post_id', '=', postId).execute();
    expect(rows).toEqual([{ variant: 'original', storage_key: `posts/${postId}/upload.${ext}`, content_type: 'application/octet-stream' }]);
    const stored = path.join(path.resolve(app.deps.config.STORAGE_DIR), 'posts', postId);
    expect(await readdir(stored)).toEqual([`upload.${ext}`]);
    expect((await readFile(path.join(stored, `upload.${ext}`))).equals(file.bytes)).toBe(true);
    // and the worker's scratch directory is gone
    expect((await readdir(tmpdir())).filter((entry) => entry.startsWith(`media-${postId}-`))).toEqual([]);
  });
});
