import type { DB } from '../../core/db/kysely';
import type { QueuedEntry } from '../../core/outbox/outbox';
import { loadPostAccess } from '../access/access';
import { messageGroupKey, notify, notifyMany } from './notify';

const day = (at: Date) => at.toISOString().slice(0, 10);
const entries = (...all: (QueuedEntry | null)[]) => all.filter((e): e is QueuedEntry => e !== null);

/**
 * A like, in the like's transaction: the post's creator is told once per post and day, on one
 * row that counts the likers ('Ava and 12 others liked your post'). Only a new like calls it.
 */
export async function notifyLike(trx: DB, like: { postId: string; creatorId: string; likerId: string; at: Date }): Promise<QueuedEntry[]> {
  return entries(
    await notify(trx, {
      userId: like.creatorId, kind: 'like', actorId: like.likerId, subject: { type: 'post', id: like.postId },
      group: { key: `like:${like.postId}:${day(like.at)}` }, at: like.at,
    }),
  );
}

/**
 * A comment, in its transaction: the author of the comment it answers is told of a reply (when
 * they may still see the post), and the post's creator of a comment (grouped per post and day),
 * unless the creator is the one told of the reply.
 */
export async function notifyComment(
  trx: DB,
  c: { postId: string; creatorId: string; authorId: string; parentId: string | null; at: Date },
): Promise<QueuedEntry[]> {
  let repliedTo: string | null = null;
  if (c.parentId) {
    const parent = await trx.selectFrom('comments').select('user_id').where('id', '=', c.parentId).executeTakeFirst();
    if (parent && (await loadPostAccess(trx, parent.user_id, c.postId, { media: false }))?.visible) repliedTo = parent.user_id;
  }
  const reply = repliedTo ? await notify(trx, { userId: repliedTo, kind: 'reply', actorId: c.authorId, subject: { type: 'post', id: c.postId }, at: c.at }) : null;
  const comment =
    repliedTo === c.creatorId
      ? null
      : await notify(trx, {
          userId: c.creatorId, kind: 'comment', actorId: c.authorId, subject: { type: 'post', id: c.postId },
          group: { key: `comment:${c.postId}:${day(c.at)}` }, at: c.at,
        });
  return entries(reply, comment);
}

/** A message's push waits this long and goes only if it is still unread then: a thread open in a tab reads it first. */
export const MESSAGE_PUSH_DELAY_MS = 3_000;

/**
 * A direct message, in its transaction: the recipient is told on one row per sender while it is
 * unread ('3 new messages from Ava'); reading the thread reads the row (markThreadRead), so a
 * message read in the open thread neither stays in the bell nor reaches the phone.
 */
export async function notifyMessage(trx: DB, m: { recipientId: string; senderId: string; at: Date }): Promise<QueuedEntry[]> {
  return notifyMessages(trx, { recipientIds: [m.recipientId], senderId: m.senderId, at: m.at });
}

/** notifyMessage for the recipients of one message to many's batch, in two statements. */
export function notifyMessages(trx: DB, m: { recipientIds: readonly string[]; senderId: string; at: Date; batch?: string }): Promise<QueuedEntry[]> {
  return notifyMany(trx, {
    userIds: m.recipientIds, kind: 'message', actorId: m.senderId, subject: { type: 'user', id: m.senderId }, ...(m.batch === undefined ? {} : { batch: m.batch }),
    group: { key: messageGroupKey(m.senderId), restartWhenRead: true }, at: m.at, pushDelayMs: MESSAGE_PUSH_DELAY_MS,
  });
}
