import { describe, expect, it } from 'vitest';
import { FairLimiter, LimiterFullError } from './fair-limiter';

/** Tasks that finish when told, recording the order they started in. */
function gate() {
  const started: string[] = [];
  const finishers: Array<() => void> = [];
  const task = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.push(() => resolve(name));
    });
  const finishOne = async () => {
    finishers.shift()!();
    await new Promise((r) => setImmediate(r));
  };
  return { started, task, finishOne };
}

describe('FairLimiter', () => {
  it("gives a free slot to the next user in turn: one user's pile does not delay another's one task", async () => {
    const limiter = new FairLimiter({ slots: 1, perUser: 1, maxWaiting: 10 });
    const { started, task, finishOne } = gate();
    const all = [1, 2, 3, 4].map((i) => limiter.run('heavy', task(`heavy-${i}`)));
    all.push(limiter.run('light', task('light-1')));
    for (let i = 0; i < 5; i++) await finishOne();
    await Promise.all(all);
    expect(started.slice(0, 2)).toEqual(['heavy-1', 'light-1']);
    expect(started).toHaveLength(5);
  });

  it('runs at most perUser of one user at once, and refuses a user with maxWaiting already waiting', async () => {
    const limiter = new FairLimiter({ slots: 4, perUser: 1, maxWaiting: 2 });
    const { started, task, finishOne } = gate();
    const accepted = [limiter.run('u', task('a')), limiter.run('u', task('b')), limiter.run('u', task('c'))];
    await expect(limiter.run('u', task('d'))).rejects.toBeInstanceOf(LimiterFullError);
    expect(started).toEqual(['a']);
    for (let i = 0; i < 3; i++) await finishOne();
    expect(await Promise.all(accepted)).toEqual(['a', 'b', 'c']);
  });
});
