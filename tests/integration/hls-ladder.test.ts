import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentUrl } from '../../server/http/segment-urls';
import { makeSubscription, makeUnlock, makeUser, type MadeUser } from '../helpers/factories';
import { urisOf } from '../helpers/hls';
import { ffprobeJson, makeVideo } from '../helpers/media-fixtures';
import { startTestServer, type TestClient, type TestServer } from '../helpers/test-server';
import { clientAs } from '../helpers/trpc';
import { tusUpload, uploadFields, waitFor } from '../helpers/tus';

// Issue 49 items 1-2: a premium video's HLS ladder, made by the real worker (ffmpeg) after the
// upload, and every playlist and segment URL of it behind the access rule.

let app: TestServer;
let work: string;
let creator: MadeUser;
let asCreator: TestClient;
let fan: MadeUser;
let asFan: TestClient;
let subscriptionId: string;
let postId: string;

beforeAll(async () => {
  app = await startTestServer();
  work = await mkdtemp(path.join(tmpdir(), 'hls-test-'));
  creator = await makeUser(app.deps.db, { isCreator: true, username: 'streamer' });
  asCreator = await clientAs(app, creator.id);
  fan = await makeUser(app.deps.db);
  asFan = await clientAs(app, fan.id);
  ({ subscriptionId } = await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id }));
  // 720p at a low frame rate: two rungs (360, 720) and no 1080, for little CPU
  const source = await makeVideo(work, { seconds: 5, width: 1280, height: 720, fps: 10 });
  ({ postId } = await tusUpload(asCreator, await readFile(source), uploadFields('clip.mp4', { isPaidContent: true })));
  await waitFor(
    async () => (await app.deps.db.selectFrom('video_ladders').select('post_id').where('post_id', '=', postId).executeTakeFirst()) ?? null,
    120_000,
    'the ladder',
  );
}, 180_000);
afterAll(async () => {
  await app?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const master = (client: TestClient) => client.fetch(`/hls/${postId}/0/master.m3u8`);

describe('the ladder', () => {
  it('has only renditions no taller than the source, ~2 s segments, aligned, with AAC audio, and keeps the MP4', async () => {
    const row = await app.deps.db.selectFrom('video_ladders').selectAll().where('post_id', '=', postId).executeTakeFirstOrThrow();
    expect(row.renditions.map((r) => [r.name, r.width, r.height])).toEqual([
      ['360', 640, 360],
      ['720', 1280, 720],
    ]);
    for (const r of row.renditions) {
      const durations = r.segments.map((s) => s.duration);
      expect(durations.slice(0, -1).every((d) => d >= 1.9 && d <= 2.1)).toBe(true);
      expect(durations.reduce((a, b) => a + b, 0)).toBeCloseTo(5, 0);
    }
    // aligned: every rung cut at the same times
    expect(row.renditions[0]!.segments.map((s) => s.duration)).toEqual(row.renditions[1]!.segments.map((s) => s.duration));
    expect(row.thumbnails).toMatchObject({ tileWidth: 160, tileHeight: 90, count: 3 });
    // a paid video: every rung also in variant B of the forensic mark, cut as A is; the owner's playlist lists A only
    for (const r of row.renditions) expect(r.variantB?.segments.map((s) => s.duration)).toEqual(r.segments.map((s) => s.duration));
    const ownerList = await (await asCreator.fetch(`/hls/${postId}/0/360.m3u8`)).text();
    expect(ownerList).not.toMatch(/\/s\/360b\//);
    // Save Media keeps the MP4
    expect((await asFan.fetch(`/media/${postId}/original`)).status).toBe(200);

    // the 720 rung's first segment, with its init segment, is a real H.264 + AAC picture
    const text = await (await asFan.fetch(`/hls/${postId}/0/720.m3u8`)).text();
    const [init, first] = urisOf(text);
    const bytes = Buffer.concat([Buffer.from(await (await asFan.fetch(init!)).arrayBuffer()), Buffer.from(await (await asFan.fetch(first!)).arrayBuffer())]);
    const file = path.join(work, 'first.mp4');
    await writeFile(file, bytes);
    const streams = (await ffprobeJson(file)).streams;
    expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({ codec_name: 'h264', width: 1280, height: 720 });
    expect(streams.find((s) => s.codec_type === 'audio')).toMatchObject({ codec_name: 'aac' });
  });

  it('serves a master playlist any HLS player (Safari natively) reads: each rung with BANDWIDTH, RESOLUTION and CODECS, lowest first', async () => {
    const res = await master(asFan);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.apple\.mpegurl/);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const text = await res.text();
    const lines = text.trim().split('\n');
    expect(lines[0]).toBe('#EXTM3U');
    const inf = lines.filter((l) => l.startsWith('#EXT-X-STREAM-INF:'));
    expect(inf).toHaveLength(2);
    for (const [i, line] of inf.entries()) {
      expect(line).toMatch(/^#EXT-X-STREAM-INF:BANDWIDTH=\d+,RESOLUTION=\d+x\d+,CODECS="avc1\.[0-9a-f]{6},mp4a\.40\.2"$/);
      // the line after each is its media playlist
      expect(lines[lines.indexOf(line) + 1]).toBe(`/hls/${postId}/0/${['360', '720'][i]}.m3u8`);
    }
    const media = await (await asFan.fetch(`/hls/${postId}/0/360.m3u8`)).text();
    expect(media).toMatch(/#EXT-X-TARGETDURATION:2\n/);
    expect(media).toMatch(/#EXT-X-PLAYLIST-TYPE:VOD/);
    expect(media.trim().endsWith('#EXT-X-ENDLIST')).toBe(true);
    expect(media).toMatch(/#EXT-X-MAP:URI="\/hls\/[^"]+\/0\/s\/360\/init_0\.mp4\?u=[^"&]+&e=\d+&s=[\w-]+"/);
    // the URL names the viewer and its expiry, nothing else (no session, no storage key)
    for (const uri of urisOf(media)) {
      const url = new URL(uri, app.url);
      expect([...url.searchParams.keys()]).toEqual(['u', 'e', 's']);
      expect(url.searchParams.get('u')).toBe(fan.id);
      expect(Number(url.searchParams.get('e')) - Date.now() / 1000).toBeLessThanOrEqual(app.deps.config.HLS_URL_TTL_S + 1);
      expect(url.pathname).not.toContain('posts/');
    }
    const vtt = await (await asFan.fetch(`/hls/${postId}/0/thumbs.vtt`)).text();
    expect(vtt.startsWith('WEBVTT')).toBe(true);
    expect(vtt).toMatch(/00:00:02\.000 --> 00:00:04\.000\n\/hls\/[^\n]+\/s\/thumbs\.jpg\?[^\n]+#xywh=160,0,160,90/);
  });
});

describe('every segment behind the access rule', () => {
  it('answers 403 to every playlist and segment without entitlement, with another viewer\'s URL, past expiry, and after the subscription ends', async () => {
    const stranger = await makeUser(app.deps.db);
    const asStranger = await clientAs(app, stranger.id);
    const otherFan = await makeUser(app.deps.db);
    const asOtherFan = await clientAs(app, otherFan.id);
    await makeSubscription(app.deps.db, { subscriberId: otherFan.id, creatorId: creator.id });
    const visitor = app.client();

    const playlists = ['master.m3u8', '360.m3u8', '720.m3u8', 'thumbs.vtt'].map((p) => `/hls/${postId}/0/${p}`);
    const fanSegments = [...urisOf(await (await asFan.fetch(playlists[1]!)).text()), ...urisOf(await (await asFan.fetch(playlists[2]!)).text())];
    expect(fanSegments.length).toBeGreaterThan(6);
    for (const uri of fanSegments) expect((await asFan.fetch(uri)).status).toBe(200);

    // the creator's own playlists and segments
    expect((await master(asCreator)).status).toBe(200);
    // without entitlement: every playlist refused
    for (const p of playlists) {
      expect((await asStranger.fetch(p)).status).toBe(403);
      expect((await visitor.fetch(p)).status).toBe(403);
    }
    // the fan's segment URLs copied to another user (entitled or not), to a browser without the session
    for (const uri of fanSegments) {
      expect((await asStranger.fetch(uri)).status).toBe(403);
      expect((await asOtherFan.fetch(uri)).status).toBe(403);
      expect((await visitor.fetch(uri)).status).toBe(403);
    }
    // a URL rewritten to name the other fan keeps the fan's signature: refused
    const rewritten = new URL(fanSegments[1]!, app.url);
    rewritten.searchParams.set('u', otherFan.id);
    expect((await asOtherFan.fetch(rewritten.pathname + rewritten.search)).status).toBe(403);
    // a later expiry under the same signature: refused
    const stretched = new URL(fanSegments[1]!, app.url);
    stretched.searchParams.set('e', String(Number(stretched.searchParams.get('e')) + 3600));
    expect((await asFan.fetch(stretched.pathname + stretched.search)).status).toBe(403);
    // past its expiry: refused, though signed by the server's own key for this very viewer
    const file = new URL(fanSegments[1]!, app.url).pathname.split('/s/')[1]!;
    const expired = segmentUrl(app.deps.config.mediaUrlKey, { viewer: fan.id, postId, position: 0, file, expires: Math.floor(Date.now() / 1000) - 1 });
    expect((await asFan.fetch(expired)).status).toBe(403);
    const fresh = segmentUrl(app.deps.config.mediaUrlKey, { viewer: fan.id, postId, position: 0, file, expires: Math.floor(Date.now() / 1000) + 60 });
    expect((await asFan.fetch(fresh)).status).toBe(200);

    // the subscription ends: the next playlist fetch is refused
    await app.deps.db
      .updateTable('subscriptions')
      .set({ status: 'expired', current_period_end: new Date(Date.now() - 60_000) })
      .where('id', '=', subscriptionId)
      .execute();
    for (const p of playlists) expect((await asFan.fetch(p)).status).toBe(403);
  });

  it('refuses the next playlist fetch of a buyer whose unlock is refunded', async () => {
    const master0 = `/hls/${postId}/0/master.m3u8`;
    // the same video as pay-per-view for everyone: a buyer plays it until the unlock is refunded
    await app.deps.db.updateTable('posts').set({ is_premium: false, unlock_price_cents: 5_000, unlock_mode: 'everyone' }).where('id', '=', postId).execute();
    const buyer = await makeUser(app.deps.db);
    const asBuyer = await clientAs(app, buyer.id);
    expect((await asBuyer.fetch(master0)).status).toBe(403);
    await makeUnlock(app.deps.db, { fanId: buyer.id, postId });
    expect((await asBuyer.fetch(master0)).status).toBe(200);
    const segment = urisOf(await (await asBuyer.fetch(`/hls/${postId}/0/360.m3u8`)).text())[1]!;
    expect((await asBuyer.fetch(segment)).status).toBe(200);
    await app.deps.db.updateTable('post_unlocks').set({ revoked_at: new Date() }).where('fan_id', '=', buyer.id).where('post_id', '=', postId).execute();
    expect((await asBuyer.fetch(master0)).status).toBe(403);
    expect((await asBuyer.fetch(`/hls/${postId}/0/360.m3u8`)).status).toBe(403);
  });

  /** A buyer of the (now pay-per-view) video, playing it: its master playlist and a segment URL answer 200. */
  async function playingBuyer() {
    const buyer = await makeUser(app.deps.db);
    const asBuyer = await clientAs(app, buyer.id);
    await makeUnlock(app.deps.db, { fanId: buyer.id, postId });
    expect((await asBuyer.fetch(`/hls/${postId}/0/master.m3u8`)).status).toBe(200);
    const segments = urisOf(await (await asBuyer.fetch(`/hls/${postId}/0/360.m3u8`)).text());
    for (const uri of segments.slice(0, 2)) expect((await asBuyer.fetch(uri)).status).toBe(200);
    return { buyer, asBuyer, segments };
  }

  it('stops a suspended buyer at once: the next playlist and segment requests are refused (sessions revoked)', async () => {
    const { buyer, asBuyer, segments } = await playingBuyer();
    // the buyer messages the creator, the creator reports it, an admin suspends the buyer
    const message = await asBuyer.trpc.messages.send.mutate({ username: creator.username, content: 'hello', clientId: randomUUID() });
    const report = await asCreator.trpc.messages.report.mutate({ messageId: message.id, reason: 'abusive' });
    const admin = await makeUser(app.deps.db);
    await app.deps.db.updateTable('users').set({ role: 'admin' }).where('id', '=', admin.id).execute();
    await (await clientAs(app, admin.id)).trpc.messages.suspendReportedSender.mutate({ id: report.id });

    // the same browser (its cookie) asks again: no playlist, and the URLs it was handed minutes ago stop too
    for (const p of ['master.m3u8', '360.m3u8', 'thumbs.vtt']) expect((await asBuyer.fetch(`/hls/${postId}/0/${p}`)).status).toBe(403);
    for (const uri of segments) expect((await asBuyer.fetch(uri)).status).toBe(403);
    expect(await app.deps.db.selectFrom('sessions').select('id').where('user_id', '=', buyer.id).execute()).toEqual([]);
  });

  it('keeps playing for a buyer the creator blocks: a block is a messaging tool, not a refund (docs/media.md)', async () => {
    const { buyer, asBuyer } = await playingBuyer();
    await asCreator.trpc.messages.block.mutate({ username: buyer.username });
    // the block took: the buyer cannot message the creator
    await expect(asBuyer.trpc.messages.send.mutate({ username: creator.username, content: 'hi', clientId: randomUUID() })).rejects.toThrow('You cannot message this user');
    // the video bought keeps playing, at the next playlist fetch too
    expect((await asBuyer.fetch(`/hls/${postId}/0/master.m3u8`)).status).toBe(200);
    const after = urisOf(await (await asBuyer.fetch(`/hls/${postId}/0/360.m3u8`)).text());
    expect((await asBuyer.fetch(after[1]!)).status).toBe(200);
  });
});
