import { createHash } from 'node:crypto';
import { postName } from '../../../common/post-name';
import type { PostDto } from '../../../common/post-dtos';
import type { ProfileDto } from '../../../common/profile-dtos';
import { drawable } from './card-text';

/** The size every link preview asks for (Open Graph's and X's large card: 1.91:1). */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/**
 * Bumped when the card's drawing changes, so every versioned card URL (and every scraper's copy
 * of it) is drawn anew.
 */
const LAYOUT_VERSION = 1;

/**
 * What a profile's card shows: the same words and counts as its page's header for a visitor
 * (a fan's page has no counts there, so neither has its card).
 */
export interface ProfileCard {
  kind: 'profile';
  name: string;
  username: string;
  verified: boolean;
  /** a site path (`/avatars/...`), fetched as a visitor fetches it */
  avatarUrl: string | null;
  counts: { subscribers: number; posts: number } | null;
}

/**
 * What a post's card shows: what a visitor sees of the post. Its picture is the image or video
 * frame when anyone may see it, a premium or pay-per-view post's blurred preview otherwise (the
 * visitor's PostDto has no other address then), or none.
 */
export interface PostCard {
  kind: 'post';
  id: string;
  title: string;
  /** the post's text when it says more than its title */
  caption: string | null;
  creator: { name: string; username: string; verified: boolean; avatarUrl: string | null };
  picture: string | null;
  /** why the picture is blurred: the badge over it */
  locked: 'premium' | 'pay-per-view' | null;
  counts: { likes: number; comments: number };
}

export type Card = ProfileCard | PostCard;

export function profileCard(profile: ProfileDto): ProfileCard {
  return {
    kind: 'profile',
    name: drawable(profile.displayName) || profile.username,
    username: profile.username,
    verified: profile.isVerified,
    avatarUrl: profile.avatarUrl,
    counts: profile.isCreator ? { subscribers: profile.subscriberCount, posts: profile.postCount } : null,
  };
}

/** The picture of a post as a visitor may see it (the rule of its page's preview: first-data.ts leadImageOf). */
function postPicture(post: PostDto): string | null {
  const media = post.media;
  if (!media) return null;
  if (!post.viewer.canViewMedia) return media.previewUrl;
  if (post.mediaKind === 'image') return media.mediumUrl ?? media.url;
  return media.posterUrl;
}

export function postCard(post: PostDto): PostCard {
  const creatorName = drawable(post.creator.displayName) || post.creator.username;
  const title = drawable(postName(post)) || postName({ title: null, creator: { displayName: creatorName, username: post.creator.username } });
  const text = drawable(post.text);
  const locked = post.viewer.canViewMedia ? null : post.unlock ? 'pay-per-view' : 'premium';
  return {
    kind: 'post',
    id: post.id,
    title,
    caption: text && text !== title ? text : null,
    creator: {
      name: creatorName,
      username: post.creator.username,
      verified: post.creator.isVerified,
      avatarUrl: post.creator.avatarUrl,
    },
    picture: postPicture(post),
    locked: post.media ? locked : null,
    counts: { likes: post.counts.likes, comments: post.counts.comments },
  };
}

/**
 * The card's version: a digest of everything drawn on it. It is the image's ETag and the `v` of
 * its URL in the page's head, so a new name, avatar or count is a new URL that scrapers fetch,
 * while an unchanged card is never drawn twice.
 */
export function cardVersion(card: Card): string {
  return createHash('sha256').update(JSON.stringify([LAYOUT_VERSION, card])).digest('base64url').slice(0, 16);
}

/** The card's address, without the version (the route's path). */
export function cardPath(card: Card): string {
  return card.kind === 'profile' ? `/og/profile/${encodeURIComponent(card.username)}.jpg` : `/og/post/${encodeURIComponent(card.id)}.jpg`;
}
