import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VALIDATION } from '../../common/texts';
import { makeUser, type MadeUser } from '../helpers/factories';
import { jpegWithExif } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { encodeMetadata, tusCreate, tusUpload, uploadFields, waitFor } from '../helpers/tus';

// Titles travel in the tus metadata, are checked like every single-line text, are stored on the
// post when the upload finishes, come back in the post DTO and name the download.

let app: TestServer;
let alice: MadeUser;
let asAlice: TestClient;
let image: Buffer;

beforeAll(async () => {
  app = await startTestServer();
  alice = await makeUser(app.deps.db, { isCreator: true, username: 'alice' });
  asAlice = await clientAs(app, alice.id);
  image = await jpegWithExif(400, 300);
});
afterAll(async () => {
  await app?.close();
});

const published = (id: string) =>
  waitFor(async () => {
    const row = await app.deps.db.selectFrom('posts').select(['status', 'title']).where('id', '=', id).executeTakeFirstOrThrow();
    return row.status === 'published' ? row : null;
  }, 60_000, `post ${id} to be published`);

const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; description?: string } }).error;

describe('post titles', () => {
  it('stores the title sent with the upload, returns it in the DTO and names the download after it', async () => {
    const { postId } = await tusUpload(asAlice, image, uploadFields('IMG_0042.jpg', { title: '  Golden Hour at Sea  ' }));
    expect((await published(postId)).title).toBe('Golden Hour at Sea');

    const dto = await asAlice.trpc.posts.byId.query({ id: postId });
    expect(dto.title).toBe('Golden Hour at Sea');

    const download = await asAlice.fetch(`/media/${postId}/original?download=1`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="golden-hour-at-sea.jpg"');
  });

  it('leaves a post without a title (or with a blank one) untitled, and names it after its creator', async () => {
    const { postId } = await tusUpload(asAlice, image, uploadFields('IMG_0043.jpg', { title: '   ' }));
    expect((await published(postId)).title).toBeNull();
    expect((await asAlice.trpc.posts.byId.query({ id: postId })).title).toBeNull();
    const download = await asAlice.fetch(`/media/${postId}/original?download=1`);
    // postName: 'Post by Alice Tester' (the factory's display name)
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="post-by-alice-tester.jpg"');
  });

  it('refuses a title with a line break, a control character or over 100 characters before a byte is stored', async () => {
    const cases: [string, string][] = [
      ['two\nlines', VALIDATION.lineBreaks],
      ['bell\u0007', VALIDATION.controlCharacters],
      ['x'.repeat(101), 'Title must be at most 100 characters'],
    ];
    for (const [title, message] of cases) {
      const res = await tusCreate(asAlice, image.length, uploadFields('a.jpg', { title }));
      expect(res.status, JSON.stringify(title)).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('INVALID_METADATA');
      expect(error.description).toContain(message);
    }
    // exactly 100 characters is fine
    const ok = await asAlice.fetch('/uploads', {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(image.length), 'Upload-Metadata': encodeMetadata({ filename: 'a.jpg', title: 'y'.repeat(100) }) },
    });
    expect(ok.status).toBe(201);
  });
});
