import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Insertable, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema';
import { uploadRuleFor } from '../../common/uploads';
import { attachmentFileKey } from '../../domain/messaging/attachments';
import { processUpload } from '../../worker/media/pipeline';
import { imageSource, pdfSource, readOutput } from './media';
import { noMediaCache, type MediaCache } from './media-cache';
import type { PeoplePlan } from './people';

/**
 * The demo inbox (issue 12) beyond the first few messages of cast.ts: conversations with a photo
 * and a PDF (made safe by the same pipeline as uploads and stored like a sent attachment), a reply
 * to the photo, reactions, read and unread messages, so /messages is alive on first start for
 * sam@demo.test and ava@demo.test. After every message is in, `rebuildConversations` fills the
 * chat list's table the way sending does.
 */
type Rows<T extends keyof Database> = Insertable<Database[T]>[];

export interface MessagingPlan {
  rows: { message_attachments: Rows<'message_attachments'>; mass_messages: Rows<'mass_messages'>; messages: Rows<'messages'>; message_reactions: Rows<'message_reactions'> };
  files: { key: string; bytes: Buffer; contentType: string }[];
}

interface Line {
  from: string;
  to: string;
  text?: string;
  media?: { filename: string; make: () => Promise<Buffer> | Buffer };
  read: boolean;
  /** quotes the line this many places before it */
  replyTo?: number;
  reaction?: string;
  minutesAgo: number;
  /** pay-per-view (issue 27 item 3), in cents: the file opens for the recipient once bought */
  priceCents?: number;
  /** a copy of the sender's message to all their active subscribers (issue 27 item 4) */
  mass?: boolean;
}

const LINES: Line[] = [
  { from: 'leo', to: 'sam', text: "Behind the scenes from today's shoot", read: true, minutesAgo: 30 * 60,
    media: { filename: 'behind-the-scenes.jpg', make: () => imageSource('Behind the scenes', '@leo', ['#1d3557', '#e63946', '#f1faee'], 7) } },
  { from: 'sam', to: 'leo', text: 'Wow, the light in this one!', read: true, replyTo: 1, reaction: '🔥', minutesAgo: 29 * 60 },
  { from: 'leo', to: 'sam', read: false, minutesAgo: 3 * 60,
    media: { filename: 'shot-list.pdf', make: () => pdfSource('Shot list', [['1. Harbour at dawn', '2. Market stalls', '3. Rooftops at dusk']]) } },
  { from: 'leo', to: 'sam', text: "Here's the shot list for next week. Any requests?", read: false, minutesAgo: 3 * 60 - 1 },
  { from: 'leo', to: 'sam', text: 'The full harbour set, just for you. The text is free, the photos are R49.', read: false, minutesAgo: 2 * 60, priceCents: 49_00,
    media: { filename: 'harbour-set.jpg', make: () => imageSource('Harbour set', '@leo', ['#0b132b', '#3a506b', '#5bc0be'], 11) } },
  { from: 'ava', to: 'sam', text: 'To all my subscribers: the new glaze collection, first look inside.', read: false, minutesAgo: 90, priceCents: 30_00, mass: true,
    media: { filename: 'glaze-collection.jpg', make: () => imageSource('Glaze collection', '@ava', ['#3d0c02', '#c9753d', '#f4e3c1'], 5) } },
  { from: 'noah', to: 'sam', text: 'Thanks for following along! New episode on Friday.', read: false, minutesAgo: 20 * 60 },
  { from: 'zoe', to: 'ava', text: 'Hello from a new fan! Your glazing posts are so calming.', read: false, minutesAgo: 50 },
  { from: 'zoe', to: 'kai', text: 'That route looked impossible 😂', read: true, minutesAgo: 26 * 60 },
  { from: 'kai', to: 'zoe', text: 'It nearly was. Took me nine tries!', read: true, replyTo: 1, reaction: '👏', minutesAgo: 25 * 60 },
];

export async function planMessaging(people: PeoplePlan, workDir: string, now: Date, cache: MediaCache = noMediaCache): Promise<MessagingPlan> {
  const plan: MessagingPlan = { rows: { message_attachments: [], mass_messages: [], messages: [], message_reactions: [] }, files: [] };
  const idOf = (username: string) => people.people.get(username)!.id;
  const ids: string[] = [];
  // the files first, side by side; a line's recipe is its `make` as written (the cache's key)
  const files = await Promise.all(
    LINES.map(({ media }) => media && cache.through({ chat: media.filename, make: media.make.toString() }, async () => [await throughPipeline(workDir, media.filename, await media.make())])),
  );
  for (const [i, line] of LINES.entries()) {
    const id = randomUUID();
    ids.push(id);
    const at = new Date(now.getTime() - line.minutesAgo * 60_000);
    let attachmentId: string | null = null;
    let kind: string | null = null;
    if (line.media) {
      attachmentId = randomUUID();
      const made = { ...files[i]![0]!, kind: uploadRuleFor(line.media.filename)!.mediaKind };
      const key = attachmentFileKey(attachmentId, randomUUID(), made.ext);
      plan.files.push({ key, bytes: made.bytes, contentType: made.contentType });
      kind = made.kind;
      plan.rows.message_attachments.push({
        id: attachmentId, owner_id: idOf(line.from), kind: made.kind, status: 'ready', original_filename: line.media.filename,
        byte_size: made.bytes.length, storage_key: key, content_type: made.contentType, width: made.width ?? null,
        height: made.height ?? null, created_at: at, updated_at: at,
      });
    }
    let massId: string | null = null;
    if (line.mass) {
      massId = randomUUID();
      plan.rows.mass_messages.push({
        id: massId, creator_id: idOf(line.from), audience: 'active', content: line.text ?? null, attachment_id: attachmentId, price_cents: line.priceCents ?? null,
        client_id: `demo-${i}`, status: 'sent', recipients_total: 1, created_at: at, finished_at: at,
      });
    }
    plan.rows.messages.push({
      price_cents: line.priceCents ?? null, mass_message_id: massId,
      id, sender_id: idOf(line.from), recipient_id: idOf(line.to), content: line.text ?? null, attachment_id: attachmentId, media_type: kind,
      reply_to_id: line.replyTo ? ids[i - line.replyTo]! : null, created_at: at,
      read_at: line.read ? new Date(at.getTime() + 2 * 60_000) : null,
    });
    if (line.reaction) plan.rows.message_reactions.push({ message_id: id, user_id: idOf(line.to), emoji: line.reaction, created_at: at });
  }
  return plan;
}

/** A chat file as the worker would store it: the served variant of the posts' pipeline, no watermark. */
async function throughPipeline(workDir: string, filename: string, bytes: Buffer) {
  const rule = uploadRuleFor(filename);
  if (!rule) throw new Error(`demo attachment ${filename}: no upload rule`);
  const dir = path.join(workDir, `message-${randomUUID()}`);
  await mkdir(dir);
  const input = path.join(dir, `source.${rule.ext}`);
  await writeFile(input, bytes);
  const media = await processUpload({ input, rule, workDir: dir, watermark: null, premium: false });
  const file = media.files.find((f) => f.variant === 'web') ?? media.files.find((f) => f.variant === 'original');
  if (!file) throw new Error(`demo attachment ${filename}: nothing to serve`);
  return readOutput(file);
}

export async function insertMessaging(trx: Kysely<Database>, plan: MessagingPlan): Promise<void> {
  if (plan.rows.message_attachments.length) await trx.insertInto('message_attachments').values(plan.rows.message_attachments).execute();
  if (plan.rows.mass_messages.length) await trx.insertInto('mass_messages').values(plan.rows.mass_messages).execute();
  // in order: a reply's quoted message must exist first
  for (const message of plan.rows.messages) await trx.insertInto('messages').values(message).execute();
  if (plan.rows.message_reactions.length) await trx.insertInto('message_reactions').values(plan.rows.message_reactions).execute();
}

/** Each side of every conversation points at its newest message (what sending keeps up to date). */
export async function rebuildConversations(trx: Kysely<Database>): Promise<void> {
  await sql`
    insert into conversations (user_id, partner_id, last_message_id, last_message_at)
    select distinct on (p.user_id, p.partner_id) p.user_id, p.partner_id, p.id, p.created_at
    from (
      select sender_id as user_id, recipient_id as partner_id, id, created_at from messages
      union all
      select recipient_id, sender_id, id, created_at from messages
    ) p
    order by p.user_id, p.partner_id, p.created_at desc, p.id desc
    on conflict (user_id, partner_id) do update
      set last_message_id = excluded.last_message_id, last_message_at = excluded.last_message_at`.execute(trx);
}
