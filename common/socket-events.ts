import type { EntitlementSubject } from './entitlements';
import type { CommentDto } from './post-dtos';
import type { MessageAttachmentDto, MessageDto, Messaging, ReactionCountDto } from './message-dtos';

/**
 * Socket.IO contract between the browser, the server and the worker.
 *
 * Rooms: every socket is in `feed`; signed-in sockets are also in `user:<id>` and
 * `session:<id>`. Other rooms have a kind and an id (`post:<id>`, `user:<id>`,
 * `conversation:<id>`): a socket asks with `room:join` and is let in only where that kind's
 * authoriser on the server says its user may be (for a post: the same access rule as the feed and
 * the media route; for a user room: only one's own).
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
 * The creator edited the post (issue 29 item 4) or pinned it. It carries no post: what a viewer
 * may see of it depends on who they are, so clients refetch it (posts.byId, and the lists that hold it).
 */
export interface PostUpdatedEvent {
  postId: string;
}
/**
 * A post became published. It carries no post: what a viewer may see of it depends on who the
 * viewer is, so clients fetch `posts.byId` or refetch the feed (open feeds offer a 'new posts' pill).
 */
export interface PostPublishedEvent {
  postId: string;
  creatorId: string;
  /**
   * Only in the creator's own copy (room `user:<creatorId>`): the upload's optimistic card id,
   * which nobody else needs. The `feed` room's copy leaves it out.
   */
  optimisticId?: string | null;
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
/**
 * One file of a post of several (issue 29), to its creator: processing (with `percent` 0-100),
 * ready, or failed with the reason they read. The upload form lists each file's state from these.
 */
export interface PostFileEvent {
  postId: string;
  optimisticId: string | null;
  position: number;
  status: 'processing' | 'ready' | 'failed';
  percent: number | null;
  reason: string | null;
}
/** To the user only: the number of messages to them not read yet, after it changed. */
export interface UnreadChangedEvent {
  count: number;
}
/**
 * To the fan only (room `user:<fanId>`): an entitlement (common/entitlements.ts: a subscription
 * to a creator, or the platform's Premium) started or ended; open feeds, profiles and post pages
 * refetch what they show of it, so premium posts unlock or lock without a reload.
 */
/** room `user:<creatorId>`: a fan tipped the creator (issue 27); a tip unlocks nothing */
export interface TipReceivedEvent {
  tipId: string;
  fanId: string;
  fanUsername: string;
  fanDisplayName: string | null;
  /** rand, '50.00' */
  amount: string;
  message: string | null;
  createdAt: string;
}

export interface EntitlementChangedEvent {
  subject: EntitlementSubject;
  active: boolean;
}
/** Direct messages (issue 12): to the two participants' rooms `user:<id>`. */
export interface MessageNewEvent {
  message: MessageDto;
}
/** An edit, or the message's attachment became ready or failed; `reactions[].mine` is the receiver's. */
export interface MessageUpdatedEvent {
  message: MessageDto;
}
export interface MessageDeletedEvent {
  messageId: string;
  senderId: string;
  recipientId: string;
}
export interface MessageReactionsEvent {
  messageId: string;
  /** the new counts; `mine` is the receiver's */
  reactions: ReactionCountDto[];
}
/** To the sender (two checks) and the reader's other tabs: these messages of `senderId` were read by `readerId`. */
export interface MessageReadEvent {
  messageIds: string[];
  readAt: string;
  readerId: string;
  senderId: string;
}
/**
 * To the uploader and, once a message carries the file, its recipient: a chat attachment finished
 * processing (ready or failed); patch the message `messageId` (null: not sent yet) or the composer.
 */
export interface MessageAttachmentEvent {
  attachment: MessageAttachmentDto;
  messageId: string | null;
}
/** To the partner: `userId` is typing to them; show it until `expiresInMs` passes or a message from them arrives. */
export interface TypingEvent {
  userId: string;
  expiresInMs: number;
}
/** Room `presence:<userId>`: the user came online or went offline (only for users who show their online status). */
export interface PresenceEvent {
  userId: string;
  online: boolean;
}
/**
 * To this socket only: it was taken out of these rooms because its user may no longer hear them
 * (a creator went private, a block, a subscription ended). The client stops expecting their events.
 */
export interface RoomsRevokedEvent {
  kind: RoomKind;
  ids: string[];
}
/**
 * To one participant's room `user:<id>`: whether they may write to `partnerId` changed (a block or
 * an unblock, either way); an open thread swaps its composer for the reason, or back, at once.
 */
export interface MessagingChangedEvent {
  partnerId: string;
  messaging: Messaging;
}
/** To the user only (room `user:<id>`): their notification centre's unread count, after it changed (issue 28). */
export interface NotificationsUnreadEvent {
  count: number;
}
export interface RateLimitedEvent {
  /** events per second a socket may send */
  limit: number;
}

/** Socket.IO events the server and worker send to browsers. */
export interface ServerToClientEvents {
  /** room `user:<id>`: the user's unread message count changed; the badge shows the new count */
  'unread:changed': (event: UnreadChangedEvent) => void;
  /**
   * this session was signed out (elsewhere); the socket is disconnected right after. Also sent on
   * connecting with a cookie that names no live session (the tab missed the first one).
   */
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
  /** rooms `post:<id>` and `user:<creatorId>`: the post was edited or pinned; refetch it */
  'post:updated': (event: PostUpdatedEvent) => void;
  /**
   * rooms `feed` (without `optimisticId`; the creator's sockets are left out) and
   * `user:<creatorId>` (with it): a post was published (by the media pipeline, or a draft by its
   * creator); the creator matches `optimisticId` to replace the 'Publishing' card
   */
  'post:published': (event: PostPublishedEvent) => void;
  /** room `user:<creatorId>`: processing failed; the post is 'failed' with this reason (retry or delete) */
  'post:failed': (event: PostFailedEvent) => void;
  /** room `user:<creatorId>`: a draft finished processing */
  'post:draft-ready': (event: PostDraftReadyEvent) => void;
  /** room `user:<creatorId>`: processing progress of one of the creator's posts */
  'post:progress': (event: PostProgressEvent) => void;
  /** room `user:<creatorId>`: one file of a post of several is processing (percent), ready or failed (reason) */
  'post:file': (event: PostFileEvent) => void;
  /** room `user:<fanId>`: the fan's subscription to a creator (or Premium) started or lapsed */
  'entitlement:changed': (event: EntitlementChangedEvent) => void;
  /** rooms `user:<recipient>` and `user:<sender>` (the sending tab left out): a new direct message */
  'message:new': (event: MessageNewEvent) => void;
  /** both participants: a message was edited */
  'message:updated': (event: MessageUpdatedEvent) => void;
  /** both participants: a message was deleted by its author */
  'message:deleted': (event: MessageDeletedEvent) => void;
  /** both participants: a reaction was added or removed */
  'message:reactions': (event: MessageReactionsEvent) => void;
  /** the sender and the reader's other tabs: messages were read */
  'message:read': (event: MessageReadEvent) => void;
  /** the uploader and the recipient of the message carrying it: a chat attachment is ready or failed */
  'message:attachment': (event: MessageAttachmentEvent) => void;
  /** the partner: someone is typing to them */
  typing: (event: TypingEvent) => void;
  /** room `presence:<userId>`: online state of a user whose thread is open */
  presence: (event: PresenceEvent) => void;
  /** this socket was removed from rooms its user may no longer hear (permissions changed since the join) */
  'rooms:revoked': (event: RoomsRevokedEvent) => void;
  /** room `user:<id>`: a block or unblock changed whether the user may write to `partnerId` */
  'messaging:changed': (event: MessagingChangedEvent) => void;
  /** this socket sent more than LIMITS.socketEventsPerSecond events in a second; the extra ones were dropped */
  'rate:limited': (event: RateLimitedEvent) => void;
  /**
   * every socket of a server copy (or of every copy): events may have been lost on their way (the
   * copy's Redis subscription, or a publisher's connection, was down and is back); refetch what
   * is shown and catch up on messages (`messages.since`), as after a reconnect
   */
  resync: () => void;
  /** room `user:<creatorId>`: a fan tipped the creator; a toast, and a line in an open chat with that fan */
  'tip:received': (event: TipReceivedEvent) => void;
  /** room `user:<id>`: the bell's unread count changed (a notification arrived, or rows were read in another tab) */
  'notifications:unread': (event: NotificationsUnreadEvent) => void;
}

/** The kinds of room a socket may ask for; the server has one authoriser per kind. */
export const ROOM_KINDS = ['post', 'user', 'conversation', 'presence'] as const;
export type RoomKind = (typeof ROOM_KINDS)[number];

/** What `room:join` / `room:leave` carry: rooms of one kind (at most LIMITS.postRoomJoinMax ids). */
export interface RoomRequest {
  kind: RoomKind;
  ids: string[];
}

/**
 * The answer to `room:join` / `room:leave`: the ids of that kind the socket is now in (join) or
 * left (leave); `kind` is null (and `ids` empty) for a request that named no known kind.
 */
export interface RoomAck {
  kind: RoomKind | null;
  ids: string[];
}

/** Socket.IO events browsers send. At most LIMITS.socketEventsPerSecond per second per socket. */
export interface ClientToServerEvents {
  /**
   * Join these rooms of one kind. Only the rooms the kind's authoriser lets the socket's user
   * into are joined; the ack lists them. Refused, unknown or malformed ids are silently left out.
   */
  'room:join': (request: RoomRequest, ack?: (result: RoomAck) => void) => void;
  /** Leave these rooms of one kind. */
  'room:leave': (request: RoomRequest, ack?: (result: RoomAck) => void) => void;
}

/**
 * Asks every server copy to run the room authoriser of `kind` again for the sockets concerned and
 * take each out of the rooms its user may no longer hear: the sockets of `userIds`, the sockets in
 * the rooms `ids`, or (posts) the sockets in the rooms of `creatorId`'s posts.
 */
export interface RoomReauthorisation {
  kind: RoomKind;
  userIds?: string[];
  ids?: string[];
  creatorId?: string;
}

/** Between server copies (and from the worker, through the Redis emitter's serverSideEmit). */
export interface ServerSideEvents {
  'rooms:reauthorise': (request: RoomReauthorisation) => void;
}

export type ServerEventName = keyof ServerToClientEvents;
export type ServerEventPayload<E extends ServerEventName> = Parameters<ServerToClientEvents[E]>;

export const FEED_ROOM = 'feed';
/** The Socket.IO room of one kind and id: `post:<id>`, `user:<id>`, `conversation:<id>`. */
export const roomName = (kind: RoomKind, id: string) => `${kind}:${id}`;
export const userRoom = (userId: string) => roomName('user', userId);
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
export const postRoom = (postId: string) => roomName('post', postId);
/** Sockets watching one user's online state (a thread with them is open); joined through its authoriser. */
export const presenceRoom = (userId: string) => roomName('presence', userId);

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
