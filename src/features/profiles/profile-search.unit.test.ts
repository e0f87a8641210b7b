import { describe, expect, it } from 'vitest';
import { PROFILE_TEXTS } from '../../../common/texts';
import { readUsernameSegment } from '../../../common/username-segment';
import { profilePostsInput } from './profile-queries';
import { profileTabs, ProfileSearch, visibleTab } from './profile-search';
import { socialLinkItems } from './social-links';

describe('the profile route', () => {
  it('reads the username as the server does, and requires one', () => {
    expect(readUsernameSegment(' @Ava ')).toEqual({ username: 'ava', error: null });
    expect(readUsernameSegment('   ')).toEqual({ username: null, error: PROFILE_TEXTS.usernameRequired });
  });
  it('keeps the owner’s tabs for the owner', () => {
    const visitor = { isOwner: false, isCreator: true };
    const creatorOwner = { isOwner: true, isCreator: true };
    expect(visibleTab(undefined, visitor)).toBe('content');
    expect(visibleTab('drafts', visitor)).toBe('content');
    expect(visibleTab('bookmarks', visitor)).toBe('content');
    expect(visibleTab('links', visitor)).toBe('links');
    expect(visibleTab('bookmarks', creatorOwner)).toBe('bookmarks');
    expect(visibleTab('drafts', creatorOwner)).toBe('drafts');
    expect(profileTabs(creatorOwner)).toEqual(['content', 'drafts', 'scheduled', 'bookmarks', 'links']);
    expect(visibleTab('scheduled', visitor)).toBe('content');
  });
  it('gives a fan’s own page their bookmarks and links, no creator tabs', () => {
    const fanOwner = { isOwner: true, isCreator: false };
    expect(profileTabs(fanOwner)).toEqual(['bookmarks', 'links']);
    expect(visibleTab(undefined, fanOwner)).toBe('bookmarks');
    expect(visibleTab('drafts', fanOwner)).toBe('bookmarks');
    expect(visibleTab('content', fanOwner)).toBe('bookmarks');
    expect(visibleTab('links', fanOwner)).toBe('links');
    // someone else looking at a fan's page
    expect(profileTabs({ isOwner: false, isCreator: false })).toEqual(['content', 'links']);
  });
  it('drops malformed search params instead of failing', () => {
    expect(ProfileSearch.parse({ q: '#sunset', tab: 'nope', view: 'media' })).toEqual({ q: '#sunset', tab: undefined, view: 'media' });
  });
  it('asks for 5 posts, without an empty search', () => {
    expect(profilePostsInput('ava', 'all', '')).toEqual({ username: 'ava', kind: 'all', q: undefined, limit: 5 });
  });
});

describe('social links', () => {
  it('opens usernames as profile pages and addresses with https://, in a fixed order', () => {
    expect(socialLinkItems({ website: 'ava.example', instagram: 'ava.paints', twitter: '@ava' })).toEqual([
      { kind: 'twitter', href: 'https://x.com/ava', display: '@ava' },
      { kind: 'instagram', href: 'https://www.instagram.com/ava.paints/', display: '@ava.paints' },
      { kind: 'website', href: 'https://ava.example', display: 'ava.example' },
    ]);
  });
  it('leaves out what would not open an http(s) address', () => {
    expect(socialLinkItems({ website: 'javascript:alert(1)', youtube: '' })).toEqual([]);
  });
});
