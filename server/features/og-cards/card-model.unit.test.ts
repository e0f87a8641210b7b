import { describe, expect, it } from 'vitest';
import type { PostDto } from '../../../common/post-dtos';
import type { ProfileDto } from '../../../common/profile-dtos';
import { cardVersion, postCard, profileCard } from './card-model';
import { drawable } from './card-text';

const profile = (over: Partial<ProfileDto> = {}): ProfileDto =>
  ({
    id: 'p1',
    username: 'ava',
    displayName: 'Ava Sinclair',
    avatarUrl: null,
    bio: null,
    isVerified: true,
    isCreator: true,
    subscriberCount: 12,
    postCount: 3,
    ...over,
  }) as ProfileDto;

const media = {
  contentType: 'image/jpeg',
  width: 1080,
  height: 810,
  durationSeconds: null,
  fileName: null,
  byteSize: null,
  url: '/media/x1/web',
  thumbUrl: '/media/x1/thumb',
  mediumUrl: '/media/x1/medium',
  posterUrl: null,
  downloadUrl: null,
  streamUrl: null,
  previewUrl: '/media/x1/preview',
};

const post = (over: Partial<PostDto> = {}): PostDto =>
  ({
    id: 'x1',
    title: 'Morning light',
    text: 'Morning light',
    isPremium: false,
    mediaKind: 'image',
    creator: { id: 'p1', username: 'ava', displayName: 'Ava Sinclair', avatarUrl: null, isVerified: false, isPremium: false },
    counts: { likes: 4, comments: 1, bookmarks: 0 },
    viewer: { liked: false, bookmarked: false, isOwner: false, canViewMedia: true },
    media,
    unlock: null,
    ...over,
  }) as PostDto;

describe('what a card shows', () => {
  it("a creator's counts, none for a fan (as the profile header)", () => {
    expect(profileCard(profile()).counts).toEqual({ subscribers: 12, posts: 3 });
    expect(profileCard(profile({ isCreator: false })).counts).toBeNull();
  });

  it('a locked post: only its blurred preview, with the reason; an open one: its medium size', () => {
    const locked = { ...media, url: null, thumbUrl: null, mediumUrl: null };
    expect(postCard(post()).picture).toBe('/media/x1/medium');
    expect(postCard(post({ isPremium: true, viewer: { liked: false, bookmarked: false, isOwner: false, canViewMedia: false }, media: locked }))).toMatchObject({
      picture: '/media/x1/preview',
      locked: 'premium',
    });
    const ppv = postCard(post({ unlock: { price: '50.00', mode: 'everyone', unlocked: false }, viewer: { liked: false, bookmarked: false, isOwner: false, canViewMedia: false }, media: locked }));
    expect(ppv).toMatchObject({ picture: '/media/x1/preview', locked: 'pay-per-view' });
  });

  it('a caption only when it says more than the title; an untitled post is named after its creator', () => {
    expect(postCard(post()).caption).toBeNull();
    expect(postCard(post({ title: null, text: 'Hello\n\nthere' }))).toMatchObject({ title: 'Post by Ava Sinclair', caption: 'Hello there' });
  });

  it('leaves out what its fonts cannot draw, and falls back when nothing is left', () => {
    expect(drawable('Sunset 🌅 at 海 — Ελλάδα, Київ')).toBe('Sunset at — Ελλάδα, Київ');
    expect(profileCard(profile({ displayName: '海辺の猫' })).name).toBe('ava');
  });

  it('a new version for each change it shows, the same for the same card', () => {
    const base = cardVersion(profileCard(profile()));
    expect(cardVersion(profileCard(profile()))).toBe(base);
    for (const changed of [{ subscriberCount: 13 }, { postCount: 4 }, { displayName: 'Ava S.' }, { avatarUrl: '/avatars/p1/a.webp' }, { isVerified: false }]) {
      expect(cardVersion(profileCard(profile(changed))), JSON.stringify(changed)).not.toBe(base);
    }
    // the bio is not on the card: no new picture for it
    expect(cardVersion(profileCard(profile({ bio: 'New bio' })))).toBe(base);
  });
});
