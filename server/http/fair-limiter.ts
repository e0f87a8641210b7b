/**
 * Heavy work of many users on few threads, fairly: at most `slots` tasks run at once, at most
 * `perUser` of them for one user, and a free slot goes to the waiting user served longest ago, so
 * one user asking for a hundred things waits behind themselves, never in front of others. A user
 * with `maxWaiting` tasks already waiting is refused (`LimiterFullError`: the caller answers 429).
 */
export class LimiterFullError extends Error {
  constructor() {
    super('too many requests waiting for this user');
  }
}

interface Waiting {
  start: () => void;
}

export class FairLimiter {
  private running = 0;
  private readonly active = new Map<string, number>();
  /** users with waiting tasks */
  private readonly queues = new Map<string, Waiting[]>();
  /** when each user last had a task started (a counter): the turn goes to whoever waited longest since */
  private readonly lastServed = new Map<string, number>();
  private tick = 0;

  constructor(private readonly opts: { slots: number; perUser: number; maxWaiting: number }) {}

  run<T>(user: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        this.lastServed.set(user, ++this.tick);
        this.active.set(user, (this.active.get(user) ?? 0) + 1);
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            const left = (this.active.get(user) ?? 1) - 1;
            if (left === 0) this.active.delete(user);
            else this.active.set(user, left);
            if (left === 0 && !this.queues.has(user)) this.lastServed.delete(user);
            this.next();
          });
      };
      if (this.running < this.opts.slots && (this.active.get(user) ?? 0) < this.opts.perUser && !this.queues.has(user)) return start();
      const queue = this.queues.get(user) ?? [];
      if (queue.length >= this.opts.maxWaiting) return reject(new LimiterFullError());
      queue.push({ start });
      this.queues.set(user, queue);
    });
  }

  private next() {
    while (this.running < this.opts.slots) {
      let chosen: string | null = null;
      for (const user of this.queues.keys()) {
        if ((this.active.get(user) ?? 0) >= this.opts.perUser) continue;
        if (chosen === null || (this.lastServed.get(user) ?? 0) < (this.lastServed.get(chosen) ?? 0)) chosen = user;
      }
      if (chosen === null) return;
      const queue = this.queues.get(chosen)!;
      const waiting = queue.shift()!;
      if (queue.length === 0) this.queues.delete(chosen);
      waiting.start();
    }
  }
}
