import { createHmac } from 'node:crypto';

/**
 * The per-buyer code of a marked video (issue 49 item 3, docs/media.md "The forensic mark"): for
 * segment `i` of a post's video, a viewer's media playlist lists variant B when their bit is 1 and
 * A when it is 0. The bit is the first bit of an HMAC-SHA256 with the server's forensic key over
 * (post, file position, viewer, i): pseudorandom and independent per segment, unpredictable
 * without the key (a buyer cannot tell which variant they were given, nor forge another buyer's
 * sequence), and recomputed by the trace for each candidate buyer. A random code is its own error
 * correction: two buyers' sequences agree on half their bits, so the trace decodes by the
 * candidate nearest in Hamming distance (worker/forensics/decode.ts). Used by the playlists (server) and
 * the trace (worker), so it lives here once.
 */

/** A segment's variant: A (bit 0) or B (bit 1). */
export type MarkVariant = 'a' | 'b';

export function markBit(key: Buffer, claim: { postId: string; position: number; viewerId: string; segment: number }): 0 | 1 {
  const digest = createHmac('sha256', key).update(`mark1\n${claim.postId}\n${claim.position}\n${claim.viewerId}\n${claim.segment}`).digest();
  return (digest[0]! & 1) as 0 | 1;
}

/** A viewer's bits for segments 0..count-1. */
export function markBits(key: Buffer, claim: { postId: string; position: number; viewerId: string }, count: number): (0 | 1)[] {
  return Array.from({ length: count }, (_, segment) => markBit(key, { ...claim, segment }));
}
