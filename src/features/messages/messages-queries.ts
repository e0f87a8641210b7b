import type { ChatPreviewDto, MessageDto } from '../../../common/message-dtos';
import type { ThreadPage } from './thread-cache';

/**
 * The messaging queries' options, in one place for the routes' loaders and the screens. Live
 * events keep them current while a messaging screen is open; coming back refetches.
 */
export const chatListOptions = {
  staleTime: 0,
  getNextPageParam: (page: { chats: ChatPreviewDto[]; nextCursor: string | null }) => page.nextCursor,
  initialCursor: null,
};

/** Admins' open reports (/admin/reports). */
export const reportsOptions = {
  staleTime: 0,
  getNextPageParam: (page: { nextCursor: string | null }) => page.nextCursor,
  initialCursor: null,
};

export const threadOptions = {
  staleTime: 0,
  // the cursor leads to OLDER messages: React Query's "next" page is the one above
  getNextPageParam: (page: ThreadPage) => page.nextCursor,
  initialCursor: null,
};

export const partnerOptions = { staleTime: 30_000, retry: false };

/** Usernames as the API takes them: the route's segment, without @, lower-cased. */
export function threadUsername(raw: string): string {
  return decodeURIComponent(raw).trim().replace(/^@/, '').toLowerCase();
}

/**
 * What this tab knows beyond React Query: the thread on screen (live events for it patch its
 * cache and count as seen), and the newest message the tab has seen, for the catch-up after a
 * reconnect ('by the last message id it saw').
 */
let openThread: { username: string; partnerId: string | null } | null = null;
let newestSeen: { id: string; createdAt: string } | null = null;

export function setOpenThread(value: { username: string; partnerId: string | null } | null): void {
  openThread = value;
}
export function getOpenThread() {
  return openThread;
}

export function noteSeen(messages: readonly Pick<MessageDto, 'id' | 'createdAt'>[]): void {
  for (const m of messages) {
    if (!newestSeen || m.createdAt > newestSeen.createdAt || (m.createdAt === newestSeen.createdAt && m.id > newestSeen.id)) {
      newestSeen = { id: m.id, createdAt: m.createdAt };
    }
  }
}
export function newestSeenId(): string | null {
  return newestSeen?.id ?? null;
}
