import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSegment, segmentUrl, signSegment } from './segment-urls';

const key = randomBytes(32);
const claim = { viewer: 'viewer-1', postId: 'post-1', position: 0, file: '360/seg_0001.m4s', expires: 1_000 };

describe('segment URLs', () => {
  it('holds for the claim it was signed for until its expiry, and not after', () => {
    const signature = signSegment(key, claim);
    expect(checkSegment(key, claim, signature, 999)).toBe('ok');
    expect(checkSegment(key, claim, signature, 1_000)).toBe('expired');
  });

  it('refuses another viewer, file, post, expiry or key under the same signature', () => {
    const signature = signSegment(key, claim);
    for (const changed of [{ viewer: 'viewer-2' }, { file: '720/seg_0001.m4s' }, { postId: 'post-2' }, { position: 1 }, { expires: 5_000 }]) {
      expect(checkSegment(key, { ...claim, ...changed }, signature, 0)).toBe('bad-signature');
    }
    expect(checkSegment(randomBytes(32), claim, signature, 0)).toBe('bad-signature');
    expect(checkSegment(key, claim, '', 0)).toBe('bad-signature');
    expect(checkSegment(key, claim, signature.slice(0, -2), 0)).toBe('bad-signature');
  });

  it('puts only the viewer, the expiry and the signature in the query', () => {
    const url = new URL(segmentUrl(key, claim), 'http://x');
    expect(url.pathname).toBe('/hls/post-1/0/s/360/seg_0001.m4s');
    expect([...url.searchParams.keys()]).toEqual(['u', 'e', 's']);
  });
});
