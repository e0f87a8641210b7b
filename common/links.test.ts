import { describe, expect, it } from 'vitest';
import { normalizeSocialHandle, normalizeWebUrl, socialLinkHref } from './links';
import { AddLinkInput, DeleteLinkInput, ExploreSearchInput, ProfileByUsernameInput, UpdateSocialLinksInput } from './profile-schemas';

const messages = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? [] : [...new Set(r.error!.issues.map((i) => i.message))];

describe('socialLinkHref', () => {
  it('opens a value without http with https:// in front, and one with http(s) as it is', () => {
    expect(socialLinkHref('website', 'ava-moreau.example')).toBe('https://ava-moreau.example');
    expect(socialLinkHref('website', 'https://ava-moreau.example/about')).toBe('https://ava-moreau.example/about');
    expect(socialLinkHref('website', 'http://old.example')).toBe('http://old.example');
    expect(socialLinkHref('website', 'HTTPS://Shout.example')).toBe('HTTPS://Shout.example');
    expect(socialLinkHref('youtube', 'youtube.com/@mayabuilds')).toBe('https://youtube.com/@mayabuilds');
    expect(socialLinkHref('website', 'example.com:8080/x')).toBe('https://example.com:8080/x');
  });

  it('turns twitter and instagram usernames into their profile pages', () => {
    expect(socialLinkHref('twitter', 'avamoreau')).toBe('https://x.com/avamoreau');
    expect(socialLinkHref('twitter', '@avamoreau')).toBe('https://x.com/avamoreau');
    expect(socialLinkHref('instagram', 'ava.paints')).toBe('https://www.instagram.com/ava.paints/');
    // an address stored before the rule was tightened still opens, if it is http(s)
    expect(socialLinkHref('instagram', 'https://instagram.com/ava.paints')).toBe('https://instagram.com/ava.paints');
  });

  it('never yields anything but an http(s) address', () => {
    for (const value of ['javascript:alert(1)', 'JavaScript:alert(1)', 'data:text/html,<b>x</b>', 'mailto:a@b.example', 'ftp://files.example', 'vbscript:x']) {
      expect(socialLinkHref('website', value), value).toBeNull();
    }
    expect(socialLinkHref('twitter', 'javascript:alert(1)')).toBeNull();
    expect(socialLinkHref('twitter', 'not a name')).toBeNull();
    expect(socialLinkHref('website', '')).toBeNull();
    expect(socialLinkHref('website', null)).toBeNull();
    expect(socialLinkHref('website', 'https://good.example@evil.example')).toBeNull();
    expect(socialLinkHref('website', 'nohost')).toBeNull();
  });
});

describe('normalizeWebUrl / normalizeSocialHandle', () => {
  it('keeps http(s), adds https:// to bare hosts, refuses other schemes and spaces', () => {
    expect(normalizeWebUrl('  https://a.example/x  ')).toBe('https://a.example/x');
    expect(normalizeWebUrl('a.example')).toBe('https://a.example');
    expect(normalizeWebUrl('http://localhost:3000/x')).toBe('http://localhost:3000/x');
    expect(normalizeWebUrl('https://a.example/with space')).toBeNull();
    expect(normalizeWebUrl('https://a.example/\u0007bell')).toBeNull();
    expect(normalizeWebUrl('https://a.example/\u007f')).toBeNull();
    expect(normalizeWebUrl('javascript://a.example/%0aalert(1)')).toBeNull();
  });

  it('strips a leading @ and takes the name out of a pasted profile address', () => {
    expect(normalizeSocialHandle('twitter', ' @kai_runs ')).toBe('kai_runs');
    expect(normalizeSocialHandle('twitter', 'https://x.com/kairuns')).toBe('kairuns');
    expect(normalizeSocialHandle('twitter', 'twitter.com/kairuns/')).toBe('kairuns');
    expect(normalizeSocialHandle('instagram', 'https://www.instagram.com/leo.low.end/')).toBe('leo.low.end');
    expect(normalizeSocialHandle('instagram', 'https://x.com/leo')).toBeNull();
    expect(normalizeSocialHandle('twitter', '')).toBe('');
    expect(normalizeSocialHandle('twitter', 'a'.repeat(31))).toBeNull();
    expect(normalizeSocialHandle('twitter', 'semi;colon')).toBeNull();
  });
});

describe('profile schemas', () => {
  it("says 'Username is required' for an empty username and matches lower-cased", () => {
    expect(messages(ProfileByUsernameInput.safeParse({ username: '  ' }))).toEqual(['Username is required']);
    expect(messages(ProfileByUsernameInput.safeParse({}))).toEqual(['Username is required']);
    expect(ProfileByUsernameInput.parse({ username: ' Ava ' }).username).toBe('ava');
  });

  it('needs both link fields, once, and an http(s) URL', () => {
    expect(messages(AddLinkInput.safeParse({ title: '', url: '' }))).toEqual(['Please fill in both title and URL fields']);
    expect(messages(AddLinkInput.safeParse({ title: 'Shop' }))).toEqual(['Please fill in both title and URL fields']);
    expect(messages(AddLinkInput.safeParse({ title: ' ', url: 'https://a.example' }))).toEqual(['Please fill in both title and URL fields']);
    expect(messages(AddLinkInput.safeParse({ title: 'x', url: 'javascript:alert(1)' }))).toEqual([
      'Please enter a valid URL starting with http:// or https://',
    ]);
    expect(AddLinkInput.parse({ title: ' Shop ', url: 'shop.example' })).toEqual({ title: 'Shop', url: 'https://shop.example' });
    expect(DeleteLinkInput.safeParse({}).success).toBe(false);
  });

  it('normalises social links and keeps what is left out', () => {
    expect(UpdateSocialLinksInput.parse({ twitter: '@maya', website: 'maya.example', youtube: '' })).toEqual({
      twitter: 'maya',
      website: 'https://maya.example',
      youtube: '',
    });
    expect(messages(UpdateSocialLinksInput.safeParse({ instagram: 'no spaces please' }))).toEqual(['Please enter a valid Instagram username']);
    expect(messages(UpdateSocialLinksInput.safeParse({ website: 'javascript:alert(1)' }))).toEqual(['Please enter a valid website URL']);
  });

  it('takes only the four categories, once each, and pages Explore by 8', () => {
    expect(ExploreSearchInput.parse({ categories: ['Art', 'Art', 'Music'] })).toEqual({ categories: ['Art', 'Music'], limit: 8 });
    expect(ExploreSearchInput.safeParse({ categories: ['Cooking'] }).success).toBe(false);
  });
});
