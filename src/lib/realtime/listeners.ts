import { useEffect, useRef } from 'react';
import type { ServerEventName, ServerEventPayload } from '../../../common/socket-events';

/**
 * Typed listeners for the server's events: the names and payloads come from the one event map in
 * common/socket-events.ts, so an event declared there can be listened for here with no other
 * wiring (the connection hands every incoming event to `dispatchRealtimeEvent`).
 */
export type RealtimeHandler<E extends ServerEventName> = (...args: ServerEventPayload<E>) => void;

type AnyHandler = (...args: unknown[]) => void;
const handlers = new Map<string, Set<AnyHandler>>();

/** Registers a handler for one server event (after the client's rate limit); returns the unsubscribe. */
export function onRealtimeEvent<E extends ServerEventName>(event: E, handler: RealtimeHandler<E>): () => void {
  let set = handlers.get(event);
  if (!set) {
    set = new Set();
    handlers.set(event, set);
  }
  const entry = handler as AnyHandler;
  set.add(entry);
  return () => {
    set.delete(entry);
  };
}

/** Hands an incoming event to its handlers; names nobody listens for are ignored. */
export function dispatchRealtimeEvent(event: string, args: unknown[]): void {
  const set = handlers.get(event);
  if (!set) return;
  for (const handler of [...set]) {
    try {
      handler(...args);
    } catch (error) {
      console.error(`A live update (${event}) failed`, error);
    }
  }
}

/**
 * While the calling component is mounted, `handler` runs for each `event` from the server. The
 * latest handler is used (no need to memoise it); the subscription itself is made once.
 */
export function useRealtimeEvent<E extends ServerEventName>(event: E, handler: RealtimeHandler<E>): void {
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => onRealtimeEvent(event, ((...args: ServerEventPayload<E>) => latest.current(...args)) as RealtimeHandler<E>), [event]);
}
