/** One event as the socket delivered it: its name and its arguments. */
export interface IncomingEvent {
  event: string;
  args: unknown[];
}

export interface IncomingQueueOptions {
  /** events handed on per second at most (spec part 1 §7: 'Event rate limit is 10 per second') */
  perSecond: number;
  /** beyond this many waiting events the oldest are dropped (a burst nobody could read anyway) */
  max: number;
  /**
   * Events whose payload is an absolute value name a key: a newer event with the same key replaces
   * the one still waiting instead of queueing behind it. null: every event counts.
   */
  latestWinsKey: (event: IncomingEvent) => string | null;
  deliver: (event: IncomingEvent) => void;
}

/**
 * The client side of the spec's event rate limit: incoming events go through one queue handed on
 * at most `perSecond` per second (a sliding second), so a burst of likes cannot re-render every
 * card hundreds of times. Uses the global clock and timers (fake ones in tests).
 */
export function createIncomingQueue({ perSecond, max, latestWinsKey, deliver }: IncomingQueueOptions) {
  const queue: { key: string | null; event: IncomingEvent }[] = [];
  const deliveredAt: number[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;

  function drain() {
    if (timer) return;
    const now = Date.now();
    while (deliveredAt.length && now - deliveredAt[0]! >= 1000) deliveredAt.shift();
    while (queue.length && deliveredAt.length < perSecond) {
      const { event } = queue.shift()!;
      deliveredAt.push(now);
      try {
        deliver(event);
      } catch (error) {
        console.error('A live update failed', error);
      }
    }
    if (queue.length) {
      timer = setTimeout(
        () => {
          timer = null;
          drain();
        },
        Math.max(10, 1000 - (now - deliveredAt[0]!)),
      );
    }
  }

  return {
    push(event: IncomingEvent): void {
      const key = latestWinsKey(event);
      if (key !== null) {
        const waiting = queue.findIndex((entry) => entry.key === key);
        if (waiting !== -1) {
          queue[waiting] = { key, event };
          return;
        }
      }
      queue.push({ key, event });
      if (queue.length > max) queue.splice(0, queue.length - max);
      drain();
    },
  };
}
