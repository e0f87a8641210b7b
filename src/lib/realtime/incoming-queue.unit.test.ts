import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createIncomingQueue, type IncomingEvent } from './incoming-queue';

describe('the incoming event queue', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function queue(max = 500) {
    const delivered: IncomingEvent[] = [];
    const q = createIncomingQueue({
      perSecond: 10,
      max,
      latestWinsKey: ({ event, args }) => (event === 'post:likes' ? `likes|${(args[0] as { postId: string }).postId}` : null),
      deliver: (event) => delivered.push(event),
    });
    return { q, delivered };
  }
  const comment = (n: number): IncomingEvent => ({ event: 'post:comment', args: [{ n }] });
  const likes = (postId: string, count: number): IncomingEvent => ({ event: 'post:likes', args: [{ postId, likes: count }] });

  it('hands on 10 events a second and the rest in the next second, in order', () => {
    const { q, delivered } = queue();
    for (let i = 0; i < 25; i++) q.push(comment(i));
    expect(delivered).toHaveLength(10);
    vi.advanceTimersByTime(999);
    expect(delivered).toHaveLength(10);
    vi.advanceTimersByTime(1);
    expect(delivered).toHaveLength(20);
    vi.advanceTimersByTime(1000);
    expect(delivered.map((e) => (e.args[0] as { n: number }).n)).toEqual([...Array(25).keys()]);
  });

  it('keeps only the newest absolute count of a post while it waits', () => {
    const { q, delivered } = queue();
    for (let i = 0; i < 10; i++) q.push(comment(i));
    q.push(likes('a', 1));
    q.push(likes('b', 7));
    q.push(likes('a', 2));
    q.push(likes('a', 3));
    vi.advanceTimersByTime(1000);
    expect(delivered.slice(10)).toEqual([likes('a', 3), likes('b', 7)]);
  });

  it('drops the oldest waiting events beyond its size, and a failing listener stops nothing', () => {
    const { q, delivered } = queue(5);
    for (let i = 0; i < 20; i++) q.push(comment(i));
    vi.advanceTimersByTime(1000);
    expect(delivered.map((e) => (e.args[0] as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 18, 19]);

    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const seen: string[] = [];
    const failing = createIncomingQueue({
      perSecond: 10,
      max: 10,
      latestWinsKey: () => null,
      deliver: ({ event }) => {
        seen.push(event);
        if (event === 'bad') throw new Error('boom');
      },
    });
    failing.push({ event: 'bad', args: [] });
    failing.push({ event: 'good', args: [] });
    expect(seen).toEqual(['bad', 'good']);
    expect(error).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});
