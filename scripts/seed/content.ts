import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Insertable } from 'kysely';
import { watermarkLabel } from '../../common/media-settings';
import { uploadRuleFor } from '../../common/uploads';
import type { Database } from '../../core/db/schema';
import { BOOKMARKS, COMMENTS, CREATORS, FANS, MESSAGES, PDF_PAGES, TEXT_DOCUMENTS, type DemoCreator, type DemoPost } from './cast';
import { processUpload } from '../../worker/media/pipeline';
import type { WatermarkSpec } from '../../worker/media/watermark';
import { audioSource, imageSource, pdfSource, readOutput, textDocumentSource, videoSource, type MediaFile } from './media';
import { noMediaCache, type MediaCache } from './media-cache';
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

/** Where a demo post's picture comes from: its creator's palette and its place in the cast. */
function imageSeedOf(creator: DemoCreator, post: DemoPost): number {
  return CREATORS.flatMap((c) => c.posts.map((p) => ({ c, p }))).findIndex((x) => x.c === creator && x.p === post) + 1;
}

/** The picture a demo image post is uploaded as, before the pipeline (tests compare it with what was stored). */
export function demoImageSource(username: string, title: string): Promise<Buffer> {
  const creator = CREATORS.find((c) => c.username === username);
  const post = creator?.posts.find((p) => p.title === title && p.kind === 'image');
  if (!creator || !post) throw new Error(`no demo image post ${username} / ${title}`);
  return imageSource(post.title, `@${creator.username}`, creator.palette, imageSeedOf(creator, post));
}

/** The creator's watermark as their media settings say (null when they turned it off), as the media job reads it. */
function watermarkOf(creator: DemoCreator): WatermarkSpec | null {
  const { enabled, text, position } = creator.watermark;
  return enabled ? { label: watermarkLabel({ watermarkText: text }, creator.username), position } : null;
}

/**
 * Every post's files come out of the upload pipeline (worker/media/pipeline.ts), the same that
 * processes a creator's upload: bytes checked, images re-encoded in their sizes, video transcoded,
 * the creator's watermark laid on pictures and video frames, a blurred preview for premium posts.
 * The sources (a drawn picture per image post; one video, one audio file; the documents) are made
 * first. To keep a first `npm start` quick, the one video goes through the pipeline once per
 * watermark and the one audio file once (sound carries no watermark), with the premium preview;
 * posts that are not premium leave the preview out. ffmpeg runs one at a time. With a cache
 * (media-cache.ts), what was made for the same recipe on an earlier start is read back instead.
 */
const SEED_TIME_LIMIT_SCALE = 20;

function mediaMaker(workDir: string, cache: MediaCache) {
  let video: Promise<string> | undefined;
  let audio: Promise<string> | undefined;
  let ffmpegQueue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = ffmpegQueue.then(work, work);
    ffmpegQueue = next.catch(() => undefined);
    return next;
  };
  const shared = new Map<string, Promise<MediaFile[]>>();
  let count = 0;

  const throughPipeline = (recipe: unknown, filename: string, source: (input: string) => Promise<void>, watermark: WatermarkSpec | null, premium: boolean) =>
    cache.through({ recipe, filename, watermark, premium }, async () => {
      const dir = path.join(workDir, `post-${++count}`);
      await mkdir(dir);
      const input = path.join(dir, `source-${filename}`);
      await source(input);
      const rule = uploadRuleFor(filename);
      if (!rule) throw new Error(`demo media ${filename}: no upload rule`);
      // our own files: the time limits that stop hostile uploads are stretched, so a busy machine
      // (a first start beside a build, a test run) cannot fail the seed
      const run = () => processUpload({ input, rule, workDir: dir, watermark, premium, timeLimitScale: SEED_TIME_LIMIT_SCALE });
      const media = await (rule.category === 'video' || rule.category === 'audio' ? oneAtATime(run) : run());
      return Promise.all(media.files.map(readOutput));
    });

  return async (creator: DemoCreator, post: DemoPost): Promise<MediaFile[]> => {
    const watermark = watermarkOf(creator);
    // the blurred preview: what a locked card (premium or pay-per-view) shows
    const premium = Boolean(post.premium || post.unlock);
    const write = (bytes: () => Buffer | Promise<Buffer>) => async (input: string) => writeFile(input, await bytes());
    switch (post.kind) {
      case 'image': {
        const recipe = { image: [post.title, `@${creator.username}`, creator.palette, imageSeedOf(creator, post)] as const };
        return throughPipeline(recipe, post.filename, write(() => imageSource(...recipe.image)), watermark, premium);
      }
      case 'pdf': {
        const recipe = { pdf: [post.title, PDF_PAGES[post.title] ?? [[post.text]]] as const };
        return throughPipeline(recipe, post.filename, write(() => pdfSource(...recipe.pdf)), watermark, premium);
      }
      case 'document': {
        const recipe = { document: TEXT_DOCUMENTS[post.title] ?? post.text };
        return throughPipeline(recipe, post.filename, write(() => textDocumentSource(recipe.document)), watermark, premium);
      }
      case 'video':
      case 'audio': {
        const isVideo = post.kind === 'video';
        const key = isVideo ? `video:${JSON.stringify(watermark)}` : 'audio';
        let files = shared.get(key);
        if (!files) {
          // made only when a pipeline run needs it (not at all when every run is in the cache)
          const made = () => (isVideo ? (video ??= videoSource(workDir)) : (audio ??= audioSource(workDir)));
          files = throughPipeline(isVideo ? 'demo video' : 'demo audio', isVideo ? 'demo.mp4' : 'demo.mp3', async (input) => copyFile(await made(), input), watermark, true);
          shared.set(key, files);
        }
        return (await files).filter((f) => premium || f.variant !== 'preview');
      }
    }
  };
}

export async function planContent(people: PeoplePlan, workDir: string, now: Date, random: () => number, cache: MediaCache = noMediaCache): Promise<ContentPlan> {
  const plan: ContentPlan = {
    rows: { posts: [], media_files: [], post_likes: [], comments: [], bookmarks: [], messages: [], message_reactions: [] },
    files: [],
  };
  const idOf = (username: string) => people.people.get(username)!.id;
  const makeMedia = mediaMaker(workDir, cache);

  const all = CREATORS.flatMap((creator) => creator.posts.map((post) => ({ creator, post, id: randomUUID() })));
  // interleave creators in time: the feed should not show one creator's whole output in a row
  const published = shuffle(all.filter((p) => !p.post.draft), random);
  const createdAt = new Map<string, Date>();
  published.forEach((p, i) => createdAt.set(p.id, new Date(now.getTime() - (2 + i * 26 + random() * 8) * HOUR)));
  all.filter((p) => p.post.draft).forEach((p) => createdAt.set(p.id, new Date(now.getTime() - (20 + random() * 30) * HOUR)));

  const media = await Promise.all(all.map(({ creator, post }) => makeMedia(creator, post)));
  all.forEach(({ creator, post, id }, i) => {
    const at = createdAt.get(id)!;
    const status = post.draft ? 'draft' : 'published';
    plan.rows.posts.push({
      id, creator_id: idOf(creator.username), title: post.title, post_text: post.text, hashtags: hashtagsOf(post.text),
      is_premium: Boolean(post.premium), unlock_price_cents: post.unlock?.priceCents ?? null, unlock_mode: post.unlock?.mode ?? null, status, target_status: status, media_kind: post.kind, original_filename: post.filename,
      created_at: at, updated_at: at, published_at: post.draft ? null : at,
      pinned_at: post.pinned ? at : null,
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
