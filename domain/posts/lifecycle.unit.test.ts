import { describe, expect, it } from 'vitest';
import { POST_STATUSES } from '../../common/enums';
import { becoming, canChange, changeableFrom, type PostChange } from './lifecycle';

describe('the post lifecycle table', () => {
  it('allows each change only from the states it starts from', () => {
    const allowed: Record<PostChange, string[]> = {
      complete: ['processing'],
      fail: ['processing'],
      retry: ['failed'],
      publish: ['draft', 'scheduled'],
      reschedule: ['scheduled'],
      cancel: ['scheduled'],
      delete: ['processing', 'failed', 'draft', 'published', 'scheduled'],
    };
    for (const [change, from] of Object.entries(allowed) as [PostChange, string[]][]) {
      expect(changeableFrom(change).sort()).toEqual([...from].sort());
      for (const status of POST_STATUSES) expect(canChange(status, change), `${change} from ${status}`).toBe(from.includes(status));
    }
  });

  it('refuses what the lifecycle does not know: no publishing of a processing or failed post, no second publication, no retry of a finished post', () => {
    expect(canChange('processing', 'publish')).toBe(false);
    expect(canChange('failed', 'publish')).toBe(false);
    expect(canChange('published', 'publish')).toBe(false);
    expect(canChange('published', 'retry')).toBe(false);
    expect(canChange('draft', 'fail')).toBe(false);
    expect(canChange('published', 'complete')).toBe(false);
    // a schedule is moved or cancelled only while it waits
    expect(canChange('published', 'reschedule')).toBe(false);
    expect(canChange('draft', 'cancel')).toBe(false);
  });

  it("pairs 'published' with its publication time and a draft with none (posts_published_at_check)", () => {
    const now = new Date('2026-11-27T01:00:00Z');
    expect(becoming('published', now)).toEqual({ status: 'published', published_at: now });
    expect(becoming('draft', now)).toEqual({ status: 'draft', published_at: null });
    expect(becoming('scheduled', now)).toEqual({ status: 'scheduled', published_at: null });
  });

  it('hands out a copy of its table, so no caller can widen a change', () => {
    changeableFrom('publish').push('failed');
    expect(canChange('failed', 'publish')).toBe(false);
  });
});
