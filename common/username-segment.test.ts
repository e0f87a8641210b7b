import { describe, expect, it } from 'vitest';
import { ProfileByUsernameInput } from './profile-schemas';
import { PROFILE_TEXTS, VALIDATION } from './texts';
import { readUsernameSegment } from './username-segment';

describe('the /{username} segment', () => {
  it('is read trimmed, without its @, lower-cased', () => {
    expect(readUsernameSegment('  @Ava ')).toEqual({ username: 'ava', error: null });
  });

  it("says 'Username is required' for an empty one, and refuses unusable characters", () => {
    expect(readUsernameSegment('   ')).toEqual({ username: null, error: PROFILE_TEXTS.usernameRequired });
    expect(readUsernameSegment('a\nb')).toEqual({ username: null, error: VALIDATION.lineBreaks });
    expect(readUsernameSegment('x'.repeat(101)).error).toBe(PROFILE_TEXTS.notFound.title);
  });

  it('is the rule the procedures run, in the browser without zod', () => {
    for (const raw of ['  @Ava ', '   ', 'a\nb', 'a\u0000b', 'x'.repeat(101), 'kai']) {
      const parsed = ProfileByUsernameInput.safeParse({ username: raw });
      const read = readUsernameSegment(raw);
      expect(parsed.success ? { username: parsed.data.username, error: null } : { username: null, error: parsed.error.issues[0]?.message }, JSON.stringify(raw)).toEqual(read);
    }
  });
});
