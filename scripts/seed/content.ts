import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { Database } from '../../core/db/schema';
import { BOOKMARKS, COMMENTS, CREATORS, FANS, MESSAGES, PDF_PAGES, TEXT_DOCUMENTS, type DemoCreator, type DemoPost } from './cast';
import { audioPost, blurredPreview, imagePost, pdfPost, textDocumentPost, titleCard, videoPost, type MediaFile } from './media';
import type { PeoplePlan } from './people';

type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export interface StoredFile {
  key: string;
  bytes: Buffer;
  contentType: string;
}

export interface ContentPlan {
  rows: {
    posts: Rows<'posts'>;
    media_files: Rows<'media_files'>;
    post_likes: Rows<'post_likes'>;
    comments: Rows<'comments'>;
    bookmarks: Rows<'bookmarks'>;
    messages: Rows<'messages'>;
    message_reactions: Rows<'message_reactions'>;
  };
  files: StoredFile[];
}

const HOUR = 60 * 60_000;

export function hashtagsOf(text: string): string[] {
  return [...new Set([...text.matchAll(/#([\p{L}\p{N}_]+)/gu)].map((m) => m[1]!.toLowerCase()))];
}

function shuffle<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * Real files for every post, made the way the worker would store them. Video and audio are
 * encoded once and shared by the posts of that kind; each image is drawn for its own post.
 */
function mediaMaker(workDir: string) {
  let video: Promise<MediaFile[]> | undefined;
  let audio: Promise<MediaFile[]> | undefined;
  return async (creator: DemoCreator, post: DemoPost, seed: number): Promise<MediaFile[]> => {
    const files = await (async () => {
      switch (post.kind) {
        case 'image':
          return imagePost(post.title, `@${creator.username}`, creator.palette, seed);
        case 'video':
          return (video ??= videoPost(workDir));
        case 'audio':
          return (audio ??= audioPost(workDir));
        case 'pdf':
          return pdfPost(post.title, PDF_PAGES[post.title] ?? [[post.text]]);
        case 'document':
          return textDocumentPost(TEXT_DOCUMENTS[post.title] ?? post.text);
      }
    })();
    if (!post.premium) return files;
    // what a non-subscriber may see: a blurred trace of the visual, or of a title card
    const visual = files.find((f) => f.variant === 'web' || f.variant === 'poster')?.bytes ?? (await titleCard(post.title, creator.palette, seed));
    return [...files, await blurredPreview(visual)];
  };
}

export async function planContent(people: PeoplePlan, workDir: string, now: Date, random: () => number): Promise<ContentPlan> {
  const plan: ContentPlan = {
    rows: { posts: [], media_files: [], post_likes: [], comments: [], bookmarks: [], messages: [], message_reactions: [] },
    files: [],
  };
  const idOf = (username: string) => people.people.get(username)!.id;
  const makeMedia = mediaMaker(workDir);

  const all = CREATORS.flatMap((creator) => creator.posts.map((post) => ({ creator, post, id: randomUUID() })));
  // interleave creators in time: the feed should not show one creator's whole output in a row
  const published = shuffle(all.filter((p) => !p.post.draft), random);
  const createdAt = new Map<string, Date>();
  published.forEach((p, i) => createdAt.set(p.id, new Date(now.getTime() - (2 + i * 26 + random() * 8) * HOUR)));
  all.filter((p) => p.post.draft).forEach((p) => createdAt.set(p.id, new Date(now.getTime() - (20 + random() * 30) * HOUR)));

  const media = await Promise.all(all.map(({ creator, post }, i) => makeMedia(creator, post, i + 1)));
  all.forEach(({ creator, post, id }, i) => {
    const at = createdAt.get(id)!;
    const status = post.draft ? 'draft' : 'published';
    plan.rows.posts.push({
      id, creator_id: idOf(creator.username), title: post.title, post_text: post.text, hashtags: hashtagsOf(post.text),
      is_premium: Boolean(post.premium), status, target_status: status, media_kind: post.kind, original_filename: post.filename,
      created_at: at, updated_at: at, published_at: post.draft ? null : at,
    });
    for (const file of media[i]!) {
      const key = `posts/${id}/${file.variant}.${file.ext}`;
      plan.files.push({ key, bytes: file.bytes, contentType: file.contentType });
      plan.rows.media_files.push({
        post_id: id, variant: file.variant, storage_key: key, content_type: file.contentType, byte_size: file.bytes.length,
        width: file.width ?? null, height: file.height ?? null, duration_seconds: file.durationSeconds ?? null, created_at: at,
      });
    }
  });

  const after = (start: Date, maxHours: number) =>
    new Date(Math.min(now.getTime() - 60_000, start.getTime() + (0.2 + random() * maxHours) * HOUR));
  const postByTitle = (title: string) => {
    const found = all.find((p) => p.post.title === title);
    if (!found) throw new Error(`demo cast refers to a missing post: ${title}`);
    return { id: found.id, at: createdAt.get(found.id)! };
  };

  // likes come from a creator's own audience, so popular creators collect more of them
  const namedFans = FANS.map((f) => idOf(f.username));
  for (const { creator, id } of published) {
    const audience = new Set([...(people.activeSubscribers.get(creator.username) ?? []), ...(creator.visibility === 'public' ? namedFans : [])]);
    for (const userId of audience) {
      if (random() < 0.6) plan.rows.post_likes.push({ post_id: id, user_id: userId, created_at: after(createdAt.get(id)!, 30) });
    }
  }

  for (const thread of COMMENTS) {
    const post = postByTitle(thread.post);
    const parentAt = after(post.at, 10);
    const parentId = randomUUID();
    plan.rows.comments.push({ id: parentId, post_id: post.id, user_id: idOf(thread.by), comment_text: thread.text, created_at: parentAt, updated_at: parentAt });
    for (const reply of thread.replies ?? []) {
      const at = after(parentAt, 6);
      plan.rows.comments.push({ post_id: post.id, user_id: idOf(reply.by), parent_id: parentId, comment_text: reply.text, created_at: at, updated_at: at });
    }
  }

  for (const b of BOOKMARKS) {
    const post = postByTitle(b.post);
    plan.rows.bookmarks.push({ user_id: idOf(b.by), post_id: post.id, created_at: after(post.at, 20) });
  }

  let previousId: string | null = null;
  MESSAGES.forEach((m, i) => {
    const id = randomUUID();
    const at = new Date(now.getTime() - (MESSAGES.length - i) * 40 * 60_000);
    plan.rows.messages.push({
      id, sender_id: idOf(m.from), recipient_id: idOf(m.to), content: m.text, created_at: at,
      read_at: m.read ? new Date(at.getTime() + 5 * 60_000) : null, reply_to_id: m.replyToPrevious ? previousId : null,
    });
    if (m.reaction) plan.rows.message_reactions.push({ message_id: id, user_id: idOf(m.to), emoji: m.reaction, created_at: at });
    previousId = id;
  });

  return plan;
}
