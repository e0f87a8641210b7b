/**
 * Which videos carry the per-buyer forensic mark (issue 49 item 3, docs/media.md): premium and
 * pay-per-view posts, the ones a fan pays for and a leak costs the creator. A free video is never
 * marked, nor is any viewer's copy of it; the owner's own playlist is never marked either (they
 * are not a suspect). The ladder job, the playlists and the trace ask this one rule.
 */
export function isMarkedPost(post: { isPremium: boolean; unlockPriceCents: number | null }): boolean {
  return post.isPremium || post.unlockPriceCents !== null;
}
