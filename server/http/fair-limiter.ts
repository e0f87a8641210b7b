/**
 * Heavy work of many users on few threads, fairly: at most `slots` tasks run at once, at most
 * `perUser` of them for one user, and a free slot goes to the next user in turn (round robin), so
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
  /** users with waiting tasks, in turn order */
  private readonly queues = new Map<string, Waiting[]>();

  constructor(private readonly opts: { slots: number; perUser: number; maxWaiting: number }) {}

  run<T>(user: string, task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const start = () => {
        this.running++;
        this.active.set(user, (this.active.get(user) ?? 0) + 1);
        task()
          .then(resolve, reject)
          .finally(() => {
            this.running--;
            const left = (this.active.get(user) ?? 1) - 1;
            if (left === 0) this.active.delete(user);
            else this.active.set(user, left);
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
    for (const [user, queue] of this.queues) {
      if (this.running >= this.opts.slots) return;
      if ((this.active.get(user) ?? 0) >= this.opts.perUser) continue;
      const waiting = queue.shift()!;
      // to the back of the turn order
      this.queues.delete(user);
      if (queue.length > 0) this.queues.set(user, queue);
      waiting.start();
    }
  }
}
