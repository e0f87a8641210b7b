import { z } from 'zod';
import { postId } from './ids';
import { UnlockSetting } from './post-unlock';
import { safeString } from './text-schema';
import { POST_TEXT_MAX_LENGTH, POST_TITLE_MAX_LENGTH, parseHashtags } from './uploads';

/**
 * `posts.edit` (issue 29 item 4): the owner's new title, text, hashtags (typed, as the upload form
 * takes them), premium flag and unlock price (null: not pay-per-view). The media, the status and
 * who bought the post never change by an edit.
 */
export const EditPostInput = z
  .object({
    postId,
    title: safeString('single-line').trim().max(POST_TITLE_MAX_LENGTH, `Title must be at most ${POST_TITLE_MAX_LENGTH} characters`),
    text: safeString('multi-line').trim().max(POST_TEXT_MAX_LENGTH, `Post text must be at most ${POST_TEXT_MAX_LENGTH} characters`),
    hashtags: safeString('single-line').max(2000),
    isPremium: z.boolean(),
    unlock: UnlockSetting,
  })
  .transform((v) => ({ ...v, title: v.title || null, text: v.text || null, hashtags: parseHashtags(v.hashtags, v.text) }));
export type EditPostInput = z.output<typeof EditPostInput>;

/** `posts.pin`: pin (at most MAX_PINNED_POSTS) or unpin the owner's published post. */
export const PinPostInput = z.object({ postId, pinned: z.boolean() });
export type PinPostInput = z.output<typeof PinPostInput>;
