import { sql } from 'kysely';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UPLOAD_POST_ID_HEADER } from '../../common/uploads';
import { maintenanceHandlers } from '../../worker/jobs/maintenance';
import { makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs } from '../helpers/trpc';
import type { TestClient } from '../helpers/test-server';
import { tusCreate, tusPatch, uploadFields } from '../helpers/tus';

// Abandoned upload groups (issue 29): a post of several files whose other files never arrived is
// cleaned by the hourly 'expire-uploads' job once older than UPLOAD_EXPIRY_HOURS: the bytes that
// did arrive leave storage, then their rows; a group still arriving and a made post stay.

const app = useFileServer({ emptyUsers: true });
const photo = (background: string) => sharp({ create: { width: 64, height: 48, channels: 3, background } }).jpeg().toBuffer();

/** Sends file `index` of a group of `count` in full; the post id when it completed the group. */
async function sendGroupFile(client: TestClient, group: string, index: number, count: number): Promise<string | null> {
  const bytes = await photo(index % 2 ? '#aa0000' : '#0000aa');
  const created = await tusCreate(client, bytes.length, uploadFields(`g-${index}.jpg`, { group: { id: group, index, count } }));
  expect(created.status).toBe(201);
  const patched = await tusPatch(client, created.headers.get('location')!, 0, bytes);
  expect(patched.status).toBe(204);
  return patched.headers.get(UPLOAD_POST_ID_HEADER);
}

const groupRows = (group: string) => app.deps.db.selectFrom('uploads').select(['id', 'source_key', 'post_id']).where('upload_group', '=', group).execute();

describe('expire-uploads and abandoned upload groups', () => {
  it('removes the files and rows of a group never completed, once old; keeps a group still arriving and a made post; twice is harmless', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const client = await clientAs(app, creator.id);
    const abandoned = `abandoned${Date.now()}`;
    const arriving = `arriving${Date.now()}`;
    const complete = `complete${Date.now()}`;
    expect(await sendGroupFile(client, abandoned, 0, 3)).toBeNull();
    expect(await sendGroupFile(client, abandoned, 1, 3)).toBeNull();
    expect(await sendGroupFile(client, arriving, 0, 2)).toBeNull();
    expect(await sendGroupFile(client, complete, 0, 2)).toBeNull();
    const postId = await sendGroupFile(client, complete, 1, 2);
    expect(postId).toBeTruthy();

    const waiting = await groupRows(abandoned);
    expect(waiting).toHaveLength(2);
    for (const row of waiting) expect(await app.deps.storage.exists(row.source_key!)).toBe(true);
    const run = () => maintenanceHandlers['expire-uploads']({ data: {} } as never, { ...app.deps } as never) as Promise<{ groupFiles: number }>;

    // nothing is old yet: nothing changes
    expect(await run()).toMatchObject({ groupFiles: 0 });
    expect(await groupRows(abandoned)).toHaveLength(2);

    // two days later for the abandoned group (and for the made post's rows)
    const old = new Date(Date.now() - 48 * 3_600_000);
    await sql`update uploads set created_at = ${old} where upload_group in (${abandoned}, ${complete})`.execute(app.deps.db);
    expect(await run()).toMatchObject({ groupFiles: 2 });
    expect(await groupRows(abandoned)).toEqual([]);
    for (const row of waiting) expect(await app.deps.storage.exists(row.source_key!)).toBe(false);
    expect(await groupRows(arriving)).toHaveLength(1);
    expect((await groupRows(complete)).map((r) => r.post_id)).toEqual([postId, postId]);
    expect(await app.deps.db.selectFrom('posts').select('id').where('id', '=', postId!).executeTakeFirst()).toBeTruthy();

    // a second run finds nothing more
    expect(await run()).toMatchObject({ groupFiles: 0 });
    expect(await groupRows(arriving)).toHaveLength(1);
  });
});
