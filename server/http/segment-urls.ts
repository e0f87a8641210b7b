import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The URLs of HLS segments a viewer's playlist lists (docs/media.md): the file, the viewer it was
 * made for and its expiry are in the URL, bound by an HMAC-SHA256 of the server's key
 * (MEDIA_URL_SECRET). Nothing else is in it: no session, no storage key. The segment route checks
 * the signature in constant time, the expiry, and that the session asking is the viewer named
 * ('anon' for a visitor: only ever for media anyone may see). Pure.
 */

/** The viewer of a URL made for a visitor without a session. */
export const ANONYMOUS_VIEWER = 'anon';

export interface SegmentClaim {
  /** the user's id, or ANONYMOUS_VIEWER */
  viewer: string;
  postId: string;
  position: number;
  /** the file in the ladder, e.g. `360/seg_0001.m4s` */
  file: string;
  /** unix seconds */
  expires: number;
}

function mac(key: Buffer, c: SegmentClaim): Buffer {
  return createHmac('sha256', key).update(`hls1\n${c.viewer}\n${c.postId}\n${c.position}\n${c.file}\n${c.expires}`).digest();
}

export function signSegment(key: Buffer, claim: SegmentClaim): string {
  return mac(key, claim).toString('base64url');
}

/** The signed URL of one file of a ladder, as the segment route reads it. */
export function segmentUrl(key: Buffer, claim: SegmentClaim): string {
  const query = new URLSearchParams({ u: claim.viewer, e: String(claim.expires), s: signSegment(key, claim) });
  return `/hls/${claim.postId}/${claim.position}/s/${claim.file}?${query.toString()}`;
}

export type SegmentCheck = 'ok' | 'bad-signature' | 'expired';

/** Whether `signature` was made by this key for this claim (constant time), and the claim is not past its expiry. */
export function checkSegment(key: Buffer, claim: SegmentClaim, signature: string, nowS: number): SegmentCheck {
  const expected = mac(key, claim);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
  return claim.expires > nowS ? 'ok' : 'expired';
}

/** A chat video's file (issue 49 item 1): always a signed-in participant's, never a visitor's. */
export interface MessageSegmentClaim {
  viewer: string;
  attachmentId: string;
  file: string;
  expires: number;
}

// another first line than a post's: a post's signature can never pass for a chat file's
function messageMac(key: Buffer, c: MessageSegmentClaim): Buffer {
  return createHmac('sha256', key).update(`hls1-message\n${c.viewer}\n${c.attachmentId}\n${c.file}\n${c.expires}`).digest();
}

export function messageSegmentUrl(key: Buffer, claim: MessageSegmentClaim): string {
  const query = new URLSearchParams({ u: claim.viewer, e: String(claim.expires), s: messageMac(key, claim).toString('base64url') });
  return `/media/messages/${claim.attachmentId}/hls/s/${claim.file}?${query.toString()}`;
}

export function checkMessageSegment(key: Buffer, claim: MessageSegmentClaim, signature: string, nowS: number): SegmentCheck {
  const expected = messageMac(key, claim);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'bad-signature';
  return claim.expires > nowS ? 'ok' : 'expired';
}
