import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentLadderKey } from '../../domain/messaging/attachments';
import { settledAttachment, uploadAttachment } from '../helpers/attachments';
import { makeUser, type MadeUser } from '../helpers/factories';
import { urisOf } from '../helpers/hls';
import { makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

// Issue 49 item 1 for chat: a chat video gets the HLS ladder too, made by the real worker after
// its processing, and its playlists and segments follow the conversation's rule: the two
// participants, a pay-per-view message's recipient only once bought.

let app: TestServer;
let work: string;
let creator: MadeUser;
let asCreator: TestClient;
let fan: MadeUser;
let asFan: TestClient;
let attachmentId: string;

beforeAll(async () => {
  app = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'chat-hls-test-'));
  creator = await makeUser(app.deps.db, { isCreator: true });
  asCreator = await clientAs(app, creator.id);
  fan = await makeUser(app.deps.db);
  asFan = await clientAs(app, fan.id);
  // tiny: 3 s of 640x360 at 10 fps, one rung
  const clip = await readFile(await makeVideo(work, { name: 'clip.mp4', seconds: 3, width: 640, height: 360, fps: 10 }));
  const up = await uploadAttachment(asCreator, 'clip.mp4', clip);
  expect(up.status).toBe(201);
  attachmentId = up.json.attachment!.id;
  expect((await settledAttachment(app, attachmentId)).status).toBe('ready');
  await waitFor(
    async () => (await app.deps.db.selectFrom('message_attachments').select('ladder').where('id', '=', attachmentId).where('ladder', 'is not', null).executeTakeFirst()) ?? null,
    120_000,
    'the chat video ladder',
  );
}, 180_000);
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const hls = (file: string) => `/media/messages/${attachmentId}/hls/${file}`;

describe('a chat video', () => {
  it('is streamed to the participants only: the sender, and a pay-per-view recipient once bought; 403 to anyone else and before buying', async () => {
    const row = await app.deps.db.selectFrom('message_attachments').select(['ladder', 'ladder_keys']).where('id', '=', attachmentId).executeTakeFirstOrThrow();
    expect(row.ladder!.renditions.map((r) => [r.name, r.width, r.height])).toEqual([['360', 640, 360]]);
    // every object recorded on the row (deleted with it), under the attachment's own keys
    const init = row.ladder!.renditions[0]!.init;
    expect(row.ladder_keys).toContain(attachmentLadderKey(attachmentId, init.file));
    expect(row.ladder_keys.every((k) => k.startsWith(`messages/${attachmentId}/hls/`))).toBe(true);

    const sent = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'for you', attachmentId, price: '12', clientId: randomUUID() });
    const stranger = await makeUser(app.deps.db);
    const asStranger = await clientAs(app, stranger.id);
    const visitor = app.client();
    const playlists = ['master.m3u8', '360.m3u8', 'thumbs.vtt'].map(hls);

    // the sender plays it: the master lists the rung, the media playlist signed URLs naming the sender
    const master = await asCreator.fetch(hls('master.m3u8'));
    expect(master.status).toBe(200);
    expect(master.headers.get('cache-control')).toBe('private, no-store');
    expect(await master.text()).toContain(`\n${hls('360.m3u8')}\n`);
    const creatorSegments = urisOf(await (await asCreator.fetch(hls('360.m3u8'))).text());
    expect(creatorSegments.length).toBeGreaterThanOrEqual(3);
    for (const uri of creatorSegments) {
      expect(new URL(uri, app.url).searchParams.get('u')).toBe(creator.id);
      expect((await asCreator.fetch(uri)).status).toBe(200);
    }

    // the recipient before buying, someone outside the conversation, a visitor: every playlist refused
    for (const p of playlists) {
      expect((await asFan.fetch(p)).status).toBe(403);
      expect((await asStranger.fetch(p)).status).toBe(403);
      expect((await visitor.fetch(p)).status).toBe(403);
    }
    // and the sender's segment URLs, copied to them
    for (const uri of creatorSegments) {
      expect((await asFan.fetch(uri)).status).toBe(403);
      expect((await asStranger.fetch(uri)).status).toBe(403);
    }

    // bought: the recipient plays it, with URLs of their own
    await asFan.trpc.messages.unlock.mutate({ messageId: sent.id, confirmedAmount: '12.00', idempotencyKey: randomUUID() });
    expect((await asFan.fetch(hls('master.m3u8'))).status).toBe(200);
    const fanSegments = urisOf(await (await asFan.fetch(hls('360.m3u8'))).text());
    for (const uri of fanSegments) expect((await asFan.fetch(uri)).status).toBe(200);
    for (const uri of fanSegments) expect((await asStranger.fetch(uri)).status).toBe(403);
    expect((await asStranger.fetch(hls('master.m3u8'))).status).toBe(403);
  });
});
