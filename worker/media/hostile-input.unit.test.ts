import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_TEXTS } from '../../common/texts';
import { uploadRuleFor } from '../../common/uploads';
import { FAKE_MEDIA_PREFIX, makeAudio, makeVideo, mediaLists } from '../../tests/helpers/media-fixtures';
import { processAudio } from './audio';
import { MediaContentError } from './errors';
import { resolveFfprobePath } from './ffmpeg-path';
import { probe } from './probe';
import { sniffUpload } from './sniff';
import { processVideo } from './video';

// The second gate on its own: files that point ffmpeg at another file, handed straight to the
// ffmpeg wrappers (as if the sniffer had let them through). ffmpeg may not read the target.

const run = promisify(execFile);
let dir: string;
let target: string;
let disguised: { name: string; file: string; demuxer: 'mov' | 'mp3' | 'ogg' }[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'hostile-input-'));
  target = await makeVideo(dir, { name: 'someone-elses.mp4', seconds: 2, width: 160, height: 120 });
  disguised = [];
  for (const [kind, list] of Object.entries(mediaLists(target))) {
    for (const [ext, demuxer] of [['mp4', 'mov'], ['mp3', 'mp3'], ['ogg', 'ogg']] as const) {
      const file = path.join(dir, `${kind}.${ext}`);
      await writeFile(file, Buffer.concat([FAKE_MEDIA_PREFIX[ext], list]));
      disguised.push({ name: `${kind}.${ext}`, file, demuxer });
    }
  }
}, 60_000);
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('ffmpeg opens an upload only as what it was sniffed to be', () => {
  it('the disguised HLS and DASH files are a real threat: an ffprobe left to guess reads the other file through them', async () => {
    for (const { name, file } of disguised.filter((d) => !d.name.startsWith('ffconcat'))) {
      const { stdout } = await run(resolveFfprobePath(), ['-v', 'error', '-show_entries', 'format=format_name:stream=codec_type', '-of', 'json', file]);
      const found = JSON.parse(stdout) as { format: { format_name: string }; streams: { codec_type: string }[] };
      expect(['hls', 'dash'], name).toContain(found.format.format_name);
      expect(found.streams.map((s) => s.codec_type), name).toContain('video');
    }
  });

  it('probe refuses every one of them as damaged', async () => {
    for (const { name, file, demuxer } of disguised) {
      const error = await probe(file, demuxer, 'video').catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(MediaContentError);
      expect((error as Error).message, name).toBe(UPLOAD_TEXTS.damaged('video'));
    }
  });

  it('processVideo and processAudio make nothing of them', async () => {
    for (const { name, file, demuxer } of disguised) {
      const workDir = await mkdtemp(path.join(dir, 'work-'));
      const error =
        demuxer === 'mov'
          ? await processVideo({ input: file, demuxer, workDir, watermark: null }).catch((e: unknown) => e)
          : await processAudio({ input: file, demuxer, workDir }).catch((e: unknown) => e);
      expect(error, name).toBeInstanceOf(MediaContentError);
      expect(await readdir(workDir), name).toEqual([]);
    }
  });

  it('still reads real media, and says what it read', async () => {
    const probed = await probe(target, 'mov', 'video');
    expect(probed).toMatchObject({ formatName: 'mov,mp4,m4a,3gp,3g2,mj2', videoStreams: [{ width: 160, height: 120, fps: 25 }], audioStreams: [{ codec: 'aac' }] });
    const mp3 = await makeAudio(dir, 'real.mp3', 1);
    expect(await probe(mp3, 'mp3', 'audio file')).toMatchObject({ formatName: 'mp3', videoStreams: [], audioStreams: [{ codec: 'mp3' }] });
    // a real file opened as something else it is not: refused, not guessed
    await expect(probe(mp3, 'mov', 'audio file')).rejects.toBeInstanceOf(MediaContentError);
  });
});

describe('the sniffer, the first gate', () => {
  it('refuses playlists, manifests, concat lists and SDP named as media, with the reason', async () => {
    const sdp = Buffer.from('v=0\no=- 0 0 IN IP4 127.0.0.1\ns=x\nc=IN IP4 127.0.0.1\nt=0 0\nm=video 5004 RTP/AVP 96\n');
    const cases: [string, Buffer][] = [
      ['sdp.mp4', Buffer.concat([FAKE_MEDIA_PREFIX.mp4, sdp])],
      ['sdp.mp3', sdp],
      ...Object.entries(mediaLists(target)).map(([kind, list]): [string, Buffer] => [`${kind}.wav`, Buffer.concat([FAKE_MEDIA_PREFIX.wav, list])]),
    ];
    for (const [name, bytes] of cases) {
      const file = path.join(dir, name);
      await writeFile(file, bytes);
      const what = name.endsWith('.mp4') ? 'video' : 'audio file';
      await expect(sniffUpload(file, uploadRuleFor(name)!), name).rejects.toThrow(UPLOAD_TEXTS.pointsToOtherFiles(what));
    }
  });

  it('looks past an ID3 tag padded beyond the first MiB, as ffmpeg does', async () => {
    const padding = 2 * 1024 * 1024;
    const id3 = Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, (padding >> 21) & 0x7f, (padding >> 14) & 0x7f, (padding >> 7) & 0x7f, padding & 0x7f]);
    const file = path.join(dir, 'padded.mp3');
    await writeFile(file, Buffer.concat([id3, Buffer.alloc(padding), mediaLists(target).hls]));
    await expect(sniffUpload(file, uploadRuleFor('padded.mp3')!)).rejects.toThrow(UPLOAD_TEXTS.pointsToOtherFiles('audio file'));
  });

  it('passes real video and audio', async () => {
    expect(await sniffUpload(target, uploadRuleFor('clip.mp4')!)).toMatchObject({ detected: 'mp4' });
    const ogg = await makeAudio(dir, 'real.ogg', 1);
    expect(await sniffUpload(ogg, uploadRuleFor('real.ogg')!)).toMatchObject({ detected: 'ogg' });
  });
});
