import { describe, expect, it } from 'vitest';
import { AddCommentInput, FeedInput, PostByIdInput } from './post-schemas';

const POST = '7d444840-9dc0-11d1-b245-5ffdce74fad2';

describe('post schemas', () => {
  it('defaults the feed page to 5 and caps it at 20', () => {
    expect(FeedInput.parse({})).toEqual({ limit: 5 });
    expect(FeedInput.safeParse({ limit: 21 }).success).toBe(false);
    expect(FeedInput.safeParse({ limit: 0 }).success).toBe(false);
  });

  it('accepts only cursors the server could have made', () => {
    const id = '7d444840-9dc0-11d1-b245-5ffdce74fad2';
    expect(FeedInput.safeParse({ cursor: { createdAt: '2026-01-01T12:00:00.123456Z', id } }).success).toBe(true);
    expect(FeedInput.safeParse({ cursor: { createdAt: '2026-01-01T12:00:00Z', id } }).success).toBe(true);
    expect(FeedInput.safeParse({ cursor: null }).success).toBe(true);
    for (const createdAt of ['2026-02-30T00:00:00Z', '2026-01-01 12:00:00', 'yesterday', '2026-01-01T12:00:00+02:00']) {
      expect(FeedInput.safeParse({ cursor: { createdAt, id } }).success, createdAt).toBe(false);
    }
    expect(FeedInput.safeParse({ cursor: { createdAt: '2026-01-01T12:00:00Z', id: 'nope' } }).success).toBe(false);
  });

  it('trims comments and refuses empty or over-long ones with our words', () => {
    expect(AddCommentInput.parse({ postId: POST, text: '  hi  ' }).text).toBe('hi');
    const empty = AddCommentInput.safeParse({ postId: POST, text: ' \n ' });
    expect(empty.success ? null : empty.error.issues[0]!.message).toBe('Comment cannot be empty');
    const long = AddCommentInput.safeParse({ postId: POST, text: 'x'.repeat(2001) });
    expect(long.success ? null : long.error.issues[0]!.message).toBe('Comment must be at most 2000 characters');
  });

  it("says 'Post ID is required' for a missing id, and only that", () => {
    const missing = PostByIdInput.safeParse({ id: '' });
    expect(missing.success ? null : missing.error.issues.map((i) => i.message)).toEqual(['Post ID is required']);
  });
});
