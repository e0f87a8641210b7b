import type { CommentDto } from './post-dtos';

/**
 * Socket.IO contract between the browser, the server and the worker.
 *
 * Rooms: every socket is in `feed`; signed-in sockets are also in `user:<id>` and
 * `session:<id>`; a socket is in `post:<id>` once it asked with `post:join` and the server found
 * the post visible to the socket's user (the same access rule as the feed and the media route).
 *
 * An event carries only what every socket it reaches may know: never the id of the user who
 * caused it. Counts in payloads are absolute (the new total after the change, never below 0),
 * so a client sets rather than adds. The tab that caused a change applied it already (optimistic
 * update, then the mutation's answer), so it sends its socket id with each tRPC request (header
 * SOCKET_ID_HEADER) and the server leaves that one socket out of the event; the user's other
 * tabs still get it.
 *
 * Socket.IO sends JSON: dates arrive as ISO strings (see SocketCommentDto).
 */

/** A comment as it travels over the socket: `createdAt` is an ISO string, not a Date. */
export type SocketCommentDto = Omit<CommentDto, 'createdAt'> & { createdAt: string };

export interface PostLikesEvent {
  postId: string;
  likes: number;
}
export interface PostCommentEvent {
  postId: string;
  comment: SocketCommentDto;
  /** the post's comment count after this comment */
  comments: number;
}
export interface PostBookmarksEvent {
  postId: string;
  bookmarks: number;
}
export interface PostDeletedEvent {
  postId: string;
}
/**
 * A post became published. It carries no post: what a viewer may see of it depends on who
 * the viewer is, so clients fetch `posts.byId` (or refetch the feed) and match `optimisticId`.
 */
export interface PostPublishedEvent {
  postId: string;
  creatorId: string;
  optimisticId: string | null;
}
/** To the creator only: the upload could not be made into a post; `reason` says why (shown as is). */
export interface PostFailedEvent {
  postId: string;
  optimisticId: string | null;
  reason: string;
}
/** To the creator only: a post saved as draft finished processing and is in the drafts now. */
export interface PostDraftReadyEvent {
  postId: string;
  optimisticId: string | null;
}
/** To the creator only: how far the worker is with the post's media (0-100), a few times per job. */
export interface PostProgressEvent {
  postId: string;
  optimisticId: string | null;
  percent: number;
}
export interface RateLimitedEvent {
  /** events per second a socket may send */
  limit: number;
}

/** Socket.IO events the server and worker send to browsers. */
export interface ServerToClientEvents {
  /** the user's unread message count changed; the client refetches it */
  'unread:changed': () => void;
  /** this session was signed out (elsewhere); the socket is disconnected right after */
  'session:revoked': () => void;
  /** room `post:<id>`: someone liked or unliked the post */
  'post:likes': (event: PostLikesEvent) => void;
  /** room `post:<id>`: a comment or reply was added */
  'post:comment': (event: PostCommentEvent) => void;
  /** room `post:<id>`: someone bookmarked or unbookmarked the post */
  'post:bookmarks': (event: PostBookmarksEvent) => void;
  /**
   * rooms `post:<id>` (sockets that may see the post) and `user:<creatorId>` (the creator's other
   * tabs: drafts, uploads): the post was deleted; drop it from every list
   */
  'post:deleted': (event: PostDeletedEvent) => void;
  /**
   * rooms `feed` and `user:<creatorId>`: a post was published (sent by the media pipeline);
   * the creator matches `optimisticId` to replace the 'Publishing' card
   */
  'post:published': (event: PostPublishedEvent) => void;
  /** room `user:<creatorId>`: processing failed; the post is 'failed' with this reason (retry or delete) */
  'post:failed': (event: PostFailedEvent) => void;
  /** room `user:<creatorId>`: a draft finished processing */
  'post:draft-ready': (event: PostDraftReadyEvent) => void;
  /** room `user:<creatorId>`: processing progress of one of the creator's posts */
  'post:progress': (event: PostProgressEvent) => void;
  /** this socket sent more than LIMITS.socketEventsPerSecond events in a second; the extra ones were dropped */
  'rate:limited': (event: RateLimitedEvent) => void;
}

/** The answer to `post:join` / `post:leave`: the ids the socket is now in (join) or left (leave). */
export interface PostRoomsAck {
  postIds: string[];
}

/** Socket.IO events browsers send. At most LIMITS.socketEventsPerSecond per second per socket. */
export interface ClientToServerEvents {
  /**
   * Join the rooms of these posts (at most LIMITS.postRoomJoinMax ids per call). Only posts
   * visible to the socket's user are joined; the ack lists them. Invisible or unknown ids are
   * silently left out.
   */
  'post:join': (postIds: string[], ack?: (result: PostRoomsAck) => void) => void;
  /** Leave the rooms of these posts (at most LIMITS.postRoomJoinMax ids per call). */
  'post:leave': (postIds: string[], ack?: (result: PostRoomsAck) => void) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>;

export const FEED_ROOM = 'feed';
export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const postRoom = (postId: string) => `post:${postId}`;

/**
 * The tRPC request header naming the sender's live socket (its Socket.IO id), which the server
 * leaves out of the realtime events the request causes.
 */
export const SOCKET_ID_HEADER = 'x-socket-id';
/**
 * What a Socket.IO socket id looks like (20 base64url characters, socket.io's base64id). Nothing
 * else may name the room left out: a room name like `feed` or `post:<id>` would silence everyone.
 */
export const isSocketId = (value: unknown): value is string => typeof value === 'string' && /^[A-Za-z0-9_-]{20}$/.test(value);
