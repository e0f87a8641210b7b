import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { MediaFile } from './media';
import { diskMediaCache } from './media-cache';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});
const cacheDir = async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'media-cache-'));
  dirs.push(dir);
  return dir;
};

const picture = (label: string): MediaFile[] => [
  { variant: 'original', ext: 'jpg', contentType: 'image/jpeg', bytes: Buffer.from(`original of ${label}`), width: 1600, height: 1200 },
  { variant: 'preview', ext: 'webp', contentType: 'image/webp', bytes: Buffer.from(`preview of ${label}`) },
];
const sound: MediaFile[] = [{ variant: 'original', ext: 'm4a', contentType: 'audio/mp4', bytes: Buffer.from('aac'), durationSeconds: 6.01 }];

/** A pipeline stand-in that counts its runs: the cache's whole point is to spare them. */
function counting(files: MediaFile[]) {
  const made = { runs: 0, make: async () => (made.runs++, files) };
  return made;
}

describe('the demo media cache', () => {
  it('makes a recipe once per machine: a second seed (a new cache over the same folder) reads the same files back', async () => {
    const dir = await cacheDir();
    const first = counting(picture('a'));
    expect(await diskMediaCache(dir).through({ image: 'a' }, first.make)).toEqual(picture('a'));
    const again = counting(picture('a'));
    expect(await diskMediaCache(dir).through({ image: 'a' }, again.make)).toEqual(picture('a'));
    expect([first.runs, again.runs]).toEqual([1, 0]);

    const audio = counting(sound);
    expect(await diskMediaCache(dir).through({ audio: 'demo' }, audio.make)).toEqual(sound);
    expect(await diskMediaCache(dir).through({ audio: 'demo' }, audio.make)).toEqual(sound);
    expect(audio.runs).toBe(1);
  });

  it('makes a different recipe afresh', async () => {
    const dir = await cacheDir();
    await diskMediaCache(dir).through({ image: 'a', watermark: 'left' }, counting(picture('a')).make);
    const other = counting(picture('b'));
    expect(await diskMediaCache(dir).through({ image: 'a', watermark: 'right' }, other.make)).toEqual(picture('b'));
    expect(other.runs).toBe(1);
  });

  it('makes an entry again when its files were lost, and drops what older code made', async () => {
    const dir = await cacheDir();
    await diskMediaCache(dir).through({ image: 'a' }, counting(picture('a')).make);
    const [version] = await readdir(dir);
    const [entry] = await readdir(path.join(dir, version!));
    await rm(path.join(dir, version!, entry!, '1.webp'));
    const remade = counting(picture('a'));
    expect(await diskMediaCache(dir).through({ image: 'a' }, remade.make)).toEqual(picture('a'));
    expect(remade.runs).toBe(1);

    await writeFile(path.join(dir, 'made-by-older-code'), 'x');
    await diskMediaCache(dir).through({ image: 'c' }, counting(picture('c')).make);
    expect(await readdir(dir)).toEqual([version]);
  });
});
