import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeSignUpInput } from './auth-schemas';
import { MediaSettingsInput } from './media-settings';
import { AddCommentInput, PostIdInput } from './post-schemas';
import { AddLinkInput, ExploreSearchInput, ProfileByUsernameInput, UpdateSocialLinksInput } from './profile-schemas';
import { textProblem } from './text-rules';
import { safeString, safeText } from './text-schema';
import { COMMENT_TEXTS, POST_TEXTS, VALIDATION } from './texts';
import { UploadMetadata } from './uploads';

const messagesOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
};

const CONTROL = VALIDATION.controlCharacters;
const POST = '7d444840-9dc0-11d1-b245-5ffdce74fad2';

describe('textProblem', () => {
  it('accepts ordinary text, emoji and other scripts in both kinds', () => {
    for (const text of ['hello', '', 'Ça va? 😀👍🏽 日本語 עברית', '👨‍👩‍👧 family', 'a\u00A0b', 'x\u2028y']) {
      expect(textProblem(text, 'single-line'), text).toBeNull();
      expect(textProblem(text, 'multi-line'), text).toBeNull();
    }
  });

  it('keeps tab, line feed and carriage return in multi-line text; single-line text keeps only the tab', () => {
    expect(textProblem('one\ttwo\nthree\r\nfour', 'multi-line')).toBeNull();
    expect(textProblem('one\ttwo', 'single-line')).toBeNull();
    expect(textProblem('one\ntwo', 'single-line')).toBe(VALIDATION.lineBreaks);
    expect(textProblem('one\rtwo', 'single-line')).toBe(VALIDATION.lineBreaks);
  });

  it('refuses U+0000 in every kind and position', () => {
    for (const text of ['\u0000', 'a\u0000', '\u0000a', 'a\u0000b\n']) {
      expect(textProblem(text, 'multi-line'), JSON.stringify(text)).toBe(CONTROL);
      expect(textProblem(text, 'single-line'), JSON.stringify(text)).toBe(CONTROL);
    }
  });

  it('refuses every other C0 control character but tab, LF and CR, and DEL', () => {
    const allowed = new Set([0x09, 0x0a, 0x0d]);
    for (let code = 0x01; code < 0x20; code += 1) {
      const text = `a${String.fromCharCode(code)}b`;
      expect(textProblem(text, 'multi-line'), `U+${code.toString(16)}`).toBe(allowed.has(code) ? null : CONTROL);
    }
    expect(textProblem('a\u007Fb', 'multi-line')).toBe(CONTROL);
    expect(textProblem('a\u001Bb', 'single-line')).toBe(CONTROL);
  });

  it('refuses lone surrogates but not surrogate pairs', () => {
    expect(textProblem('a\uD83Db', 'multi-line')).toBe(VALIDATION.invalidCharacters);
    expect(textProblem('a\uDE00', 'single-line')).toBe(VALIDATION.invalidCharacters);
    expect(textProblem('\uD83D', 'multi-line')).toBe(VALIDATION.invalidCharacters);
    expect(textProblem('\uDE00\uD83D', 'multi-line')).toBe(VALIDATION.invalidCharacters);
    expect(textProblem('\uD83D\uDE00', 'multi-line')).toBeNull();
  });
});

describe('safeText / safeString', () => {
  it('reports a bad character alone, not beside the length and format messages after it', () => {
    const schema = z.string().trim().check(safeText('single-line')).min(5, 'too short').regex(/^[a-z]+$/, 'letters only');
    expect(messagesOf(schema, '\u0000')).toEqual([CONTROL]);
    // a usable text still gets every message of its own
    expect(messagesOf(schema, 'A1')).toEqual(['too short', 'letters only']);
    expect(schema.parse('  hello  ')).toBe('hello');
  });

  it('checks after a trim placed before it, so surrounding line breaks of a single-line field are forgiven', () => {
    expect(z.string().trim().check(safeText('single-line')).parse('\n name \r\n')).toBe('name');
    expect(messagesOf(safeString('single-line'), 'name\n')).toEqual([VALIDATION.lineBreaks]);
  });
});

describe('the shared input schemas refuse unstorable text', () => {
  it('comments: NUL and controls refused, tabs, newlines and emoji kept', () => {
    expect(messagesOf(AddCommentInput, { postId: POST, text: 'hi\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(AddCommentInput, { postId: POST, text: 'x\uD800' })).toEqual([VALIDATION.invalidCharacters]);
    expect(AddCommentInput.parse({ postId: POST, text: 'line one\n\tline two 🎉' }).text).toBe('line one\n\tline two 🎉');
    // an id with a control character is no id: answered like an unknown one (common/ids.ts)
    expect(messagesOf(AddCommentInput, { postId: POST, text: 'ok', parentId: 'c\u0000' })).toEqual([COMMENT_TEXTS.parentNotFound]);
    expect(messagesOf(PostIdInput, { postId: 'p\u0000' })).toEqual([POST_TEXTS.notFound]);
  });

  it('sign-up: names, username, e-mail and password', () => {
    const valid = {
      email: 'ava@example.com',
      password: 'secret1',
      username: 'ava',
      firstName: 'Ava',
      surname: 'Stone',
      dateOfBirth: '1990-05-01',
      acceptTerms: true,
    };
    const SignUp = makeSignUpInput(() => new Date('2026-01-01T00:00:00Z'));
    expect(SignUp.safeParse(valid).success).toBe(true);
    for (const field of ['email', 'password', 'username', 'firstName', 'surname', 'dateOfBirth'] as const) {
      expect(messagesOf(SignUp, { ...valid, [field]: `${valid[field]}\u0000` }), field).toEqual([CONTROL]);
    }
    expect(messagesOf(SignUp, { ...valid, firstName: 'Ava\nMarie' })).toEqual([VALIDATION.lineBreaks]);
    // the spec's whitespace removal still applies to usernames before the check
    expect(SignUp.parse({ ...valid, username: 'ava\nstar' }).username).toBe('avastar');
    expect(SignUp.parse({ ...valid, firstName: 'Zoë 😀' }).firstName).toBe('Zoë 😀');
  });

  it('profiles, explore, links and media settings', () => {
    expect(messagesOf(ProfileByUsernameInput, { username: 'ava\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(ExploreSearchInput, { q: 'cats\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(ExploreSearchInput, { q: 'cats\ndogs' })).toEqual([VALIDATION.lineBreaks]);
    expect(ExploreSearchInput.parse({ q: ' 🐱 cats ' }).q).toBe('🐱 cats');
    expect(messagesOf(AddLinkInput, { title: 'My\u0000shop', url: 'shop.example.com' })).toEqual([CONTROL]);
    expect(messagesOf(AddLinkInput, { title: 'My shop', url: 'shop.example.com/\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(AddLinkInput, { title: 'My\nshop', url: 'shop.example.com' })).toEqual([VALIDATION.lineBreaks]);
    expect(messagesOf(UpdateSocialLinksInput, { website: 'a.example.com\u0000' })).toEqual([CONTROL]);
    expect(UpdateSocialLinksInput.parse({ twitter: ' @ava \n' }).twitter).toBe('ava');
    expect(messagesOf(MediaSettingsInput, { watermarkEnabled: true, watermarkText: 'x\u0000', watermarkPosition: 'center' })).toEqual([CONTROL]);
  });

  it('tus metadata: filename, text, hashtags and type', () => {
    expect(messagesOf(UploadMetadata, { filename: 'a\u0000.jpg' })).toEqual([CONTROL]);
    expect(messagesOf(UploadMetadata, { filename: 'a.jpg', postText: 'hello\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(UploadMetadata, { filename: 'a.jpg', hashtags: 'art\u0000' })).toEqual([CONTROL]);
    expect(messagesOf(UploadMetadata, { filename: 'a.jpg', hashtags: 'art\ntravel' })).toEqual([VALIDATION.lineBreaks]);
    expect(messagesOf(UploadMetadata, { filename: 'a.jpg', filetype: 'image/jpeg\u0000' })).toEqual([CONTROL]);
    const ok = UploadMetadata.parse({ filename: 'Café 😀.jpg', postText: 'Line one\n\tLine two #art', hashtags: 'art\ttravel' });
    expect(ok).toMatchObject({ filename: 'Café 😀.jpg', postText: 'Line one\n\tLine two #art', hashtags: 'art\ttravel' });
  });
});
