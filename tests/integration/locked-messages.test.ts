import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AnyProcedure, inferProcedureOutput, TRPCRouterRecord } from '@trpc/server';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatLastMessageDto, MessageAttachmentDto, MessageReplyDto } from '../../common/message-dtos';
import type { ServerToClientEvents } from '../../common/socket-events';
import { announceAttachment } from '../../domain/messaging/attachments';
import { appRouter, type AppRouter } from '../../server/trpc/router';
import { makeSubscription, makeUser } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { paid } from '../helpers/paid';
import { socketPool } from '../helpers/sockets';
import { clientAs } from '../helpers/trpc';

// Issue 46 item 3: a locked (pay-per-view, not bought) message shows nothing of its file (address,
// stored key, file name) to its recipient in any answer or event: the message itself, a reply
// quoting it, the chat list, the catch-up, a message to many's copy, the attachment's ready event.
// One place shapes a message for a viewer (domain/messaging/message-view.ts); this walks every
// procedure and event that carries one, before and after the fan pays.
const app = useFileServer({ emptyUsers: true });
const sockets = socketPool();
afterEach(sockets.closeAll);

// ---- which procedures and events carry a message: read from the router's and the socket contract's types

/** What a message, its file or a quote of it looks like in an answer or a payload. */
type MessageParts = MessageAttachmentDto | MessageReplyDto | ChatLastMessageDto;
type Carries<T, D extends unknown[] = []> = D['length'] extends 7
  ? false
  : T extends MessageParts
    ? true
    : T extends Date
      ? false
      : T extends readonly (infer U)[]
        ? Carries<U, [...D, 1]>
        : T extends object
          ? true extends { [K in keyof T]-?: Carries<T[K], [...D, 1]> }[keyof T]
            ? true
            : false
          : false;
type ProceduresCarrying<R, P extends string = ''> = {
  [K in keyof R & string]: R[K] extends AnyProcedure
    ? true extends Carries<inferProcedureOutput<R[K]>>
      ? `${P}${K}`
      : never
    : R[K] extends TRPCRouterRecord
      ? ProceduresCarrying<R[K], `${P}${K}.`>
      : never;
}[keyof R & string];
type EventsCarrying = {
  [E in keyof ServerToClientEvents]: true extends Carries<Parameters<ServerToClientEvents[E]>[0]> ? E : never;
}[keyof ServerToClientEvents];
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Every procedure whose answer carries a message (or its file, or a quote): each is driven below. */
const MESSAGE_PROCEDURES = ['messages.chatList', 'messages.thread', 'messages.since', 'messages.attachFromVault', 'messages.send', 'messages.edit'] as const;
/** Every socket event whose payload carries one: each is heard below. */
const MESSAGE_EVENTS = ['message:new', 'message:updated', 'message:attachment'] as const;
// `npm run typecheck` fails here when a procedure or an event that carries a message is added
// (or one stops carrying it) without this test walking it
const listsAreComplete: [Equal<ProceduresCarrying<AppRouter['_def']['record']>, (typeof MESSAGE_PROCEDURES)[number]>, Equal<EventsCarrying, (typeof MESSAGE_EVENTS)[number]>] = [
  true,
  true,
];

/**
 * The same list for the events, read from the contract's text at run time (the test runner does
 * not type-check): each ServerToClientEvents entry whose payload type names a message part.
 */
function eventsCarryingFromSource(): string[] {
  const text = readFileSync(new URL('../../common/socket-events.ts', import.meta.url), 'utf8');
  const block = /export interface ServerToClientEvents \{([\s\S]*?)\n\}/.exec(text)![1]!;
  const found: string[] = [];
  for (const [, name, payloadType] of block.matchAll(/^\s+'?([\w:]+)'?: \((?:event: (\w+))?\) => void;/gm)) {
    if (!payloadType) continue;
    const body = new RegExp(`export interface ${payloadType} \\{([\\s\\S]*?)\\n\\}`).exec(text)?.[1] ?? '';
    if (/\b(MessageDto|MessageAttachmentDto|MessageReplyDto|ChatPreviewDto|ChatLastMessageDto)\b/.test(body)) found.push(name!);
  }
  return found.sort();
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A chat file of the creator, ready (as the worker leaves one) or still processing. */
async function chatFile(ownerId: string, fileName: string, status: 'ready' | 'processing') {
  const id = randomUUID();
  const key = `messages/${id}/run-${id.slice(0, 8)}/file.png`;
  if (status === 'ready') await app.deps.storage.put(key, PNG, 'image/png');
  await app.deps.db
    .insertInto('message_attachments')
    .values({
      id,
      owner_id: ownerId,
      kind: 'image',
      status,
      original_filename: fileName,
      byte_size: PNG.length,
      storage_key: status === 'ready' ? key : null,
      content_type: status === 'ready' ? 'image/png' : null,
    })
    .execute();
  return { id, key, fileName };
}
type ChatFile = Awaited<ReturnType<typeof chatFile>>;

/** What of `file` the text shows: its address (its preview's is fine), its stored key, its file name. */
function traces(text: string, file: ChatFile): string[] {
  const found: string[] = [];
  if (new RegExp(`/media/messages/${file.id}(?!/preview)`).test(text)) found.push(`address of ${file.fileName}`);
  if (text.includes(`messages/${file.id}/run`)) found.push(`stored key of ${file.fileName}`);
  if (text.includes(file.fileName)) found.push(`name ${file.fileName}`);
  return found;
}

describe('a locked message shows nothing of its file (issue 46 item 3)', () => {
  it('the lists of procedures and events that carry a message are the ones walked here', () => {
    expect(listsAreComplete).toEqual([true, true]);
    const procedures = Object.keys((appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures);
    for (const path of MESSAGE_PROCEDURES) expect(procedures).toContain(path);
    expect(eventsCarryingFromSource()).toEqual([...MESSAGE_EVENTS].sort());
  });

  it('no answer or event gives the fan the address, key or name of a file they have not bought; each does once they pay', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    await makeSubscription(app.deps.db, { subscriberId: fan.id, creatorId: creator.id });
    const [asCreator, asFan] = await Promise.all([clientAs(app, creator.id), clientAs(app, fan.id)]);

    // every event the fan's tab hears, by name
    const fanTab = await sockets.open(app, fan);
    const heard: { event: string; payload: unknown }[] = [];
    fanTab.onAny((event: string, payload: unknown) => heard.push({ event, payload }));
    const answers: { from: string; value: unknown }[] = [];
    /** a procedure's answer, kept for the scan (a refusal is kept as its error) */
    const answer = async <T>(from: (typeof MESSAGE_PROCEDURES)[number], call: Promise<T>): Promise<T> => {
      try {
        const value = await call;
        answers.push({ from, value });
        return value;
      } catch (error) {
        answers.push({ from, value: String(error) });
        throw error;
      }
    };

    const hello = await asFan.trpc.messages.send.mutate({ username: creator.username, content: 'hello', clientId: randomUUID() });
    // a file sold in a message, one sold while still processing, one sold in a message to many
    const sold = await chatFile(creator.id, 'sold-beach-set.png', 'ready');
    const later = await chatFile(creator.id, 'sold-while-processing.png', 'processing');
    const many = await chatFile(creator.id, 'sold-to-many.png', 'ready');
    const files = [sold, later, many];
    const m1 = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'for you', attachmentId: sold.id, price: '20', clientId: randomUUID() });
    const m2 = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'soon', attachmentId: later.id, price: '15', clientId: randomUUID() });
    const mass = await asCreator.trpc.massMessages.create.mutate({ audience: 'active', content: 'to all', attachmentId: many.id, price: '30', clientId: randomUUID() });
    await app.drain('mass-messages');
    expect(m1.attachment?.url).toBeTruthy(); // the creator's own view has the file: these checks can see it

    // the fan, who has paid nothing, through every procedure that carries a message
    const thread = await answer('messages.thread', asFan.trpc.messages.thread.query({ username: creator.username }));
    const copy = thread.messages.find((m) => m.massMessageId === mass.id)!;
    expect(thread.messages.filter((m) => m.locked).map((m) => m.id).sort()).toEqual([m1.id, m2.id, copy.id].sort());
    await answer('messages.since', asFan.trpc.messages.since.query({ afterId: hello.id }));
    await answer('messages.chatList', asFan.trpc.messages.chatList.query({}));
    const fanReply = await answer('messages.send', asFan.trpc.messages.send.mutate({ username: creator.username, content: 'what is it?', replyToId: m1.id, clientId: randomUUID() }));
    await answer('messages.send', asFan.trpc.messages.send.mutate({ username: creator.username, content: 'and this?', replyToId: copy.id, clientId: randomUUID() }));
    await answer('messages.edit', asFan.trpc.messages.edit.mutate({ id: fanReply.id, content: 'what is in it?' }));
    // the fan has no vault: the only file this answers with is one's own (refused here)
    await expect(answer('messages.attachFromVault', asFan.trpc.messages.attachFromVault.mutate({ postId: randomUUID(), position: 0 }))).rejects.toThrow();
    // what reaches the fan by event: the creator quoting and editing, the processing file becoming ready
    const creatorReply = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'see above', replyToId: m1.id, clientId: randomUUID() });
    await asCreator.trpc.messages.edit.mutate({ id: m1.id, content: 'for you, edited' });
    await asCreator.trpc.messages.edit.mutate({ id: creatorReply.id, content: 'see above, edited' });
    await app.deps.db
      .updateTable('message_attachments')
      .set({ status: 'ready', storage_key: `messages/${later.id}/run-x/file.png`, content_type: 'image/png' })
      .where('id', '=', later.id)
      .execute();
    await app.deps.storage.put(`messages/${later.id}/run-x/file.png`, PNG, 'image/png');
    await announceAttachment(app.deps.db, app.deps.realtime, later.id);
    const has = (event: string, test: (p: { message?: { id: string; content: string | null }; messageId?: string }) => boolean) =>
      heard.some((h) => h.event === event && test(h.payload as never));
    await expect
      .poll(() =>
        [
          has('message:new', (p) => p.message?.id === m1.id),
          has('message:new', (p) => p.message?.id === copy.id),
          has('message:new', (p) => p.message?.id === creatorReply.id),
          has('message:updated', (p) => p.message?.content === 'for you, edited'),
          has('message:updated', (p) => p.message?.content === 'see above, edited'),
          has('message:attachment', (p) => p.messageId === m2.id),
        ].every(Boolean),
      )
      .toBe(true);
    for (const event of MESSAGE_EVENTS) expect(heard.map((h) => h.event)).toContain(event);
    for (const path of MESSAGE_PROCEDURES) expect(answers.map((a) => a.from)).toContain(path);

    const leaks = [
      ...answers.flatMap((a) => files.flatMap((f) => traces(JSON.stringify(a.value), f).map((t) => `${a.from}: ${t}`))),
      ...heard.flatMap((h) => files.flatMap((f) => traces(JSON.stringify(h.payload), f).map((t) => `${h.event}: ${t}`))),
    ];
    expect([...new Set(leaks)]).toEqual([]);

    // the fan pays for each: now every path carries the file
    for (const m of [m1, m2, copy]) {
      paid(await asFan.trpc.messages.unlock.mutate({ messageId: m.id, confirmedAmount: m.price!, idempotencyKey: randomUUID() }));
    }
    heard.length = 0;
    const after = (await asFan.trpc.messages.thread.query({ username: creator.username })).messages;
    const byId = new Map(after.map((m) => [m.id, m]));
    for (const [m, f] of [[m1, sold], [m2, later], [copy, many]] as const) {
      expect(byId.get(m.id)).toMatchObject({ locked: false, attachment: { url: `/media/messages/${f.id}`, fileName: f.fileName } });
      expect((await asFan.fetch(`/media/messages/${f.id}`)).status).toBe(200);
    }
    expect(byId.get(fanReply.id)?.replyTo?.mediaUrl).toBe(`/media/messages/${sold.id}`);
    expect(byId.get(creatorReply.id)?.replyTo?.mediaUrl).toBe(`/media/messages/${sold.id}`);
    const since = await asFan.trpc.messages.since.query({ afterId: hello.id });
    expect(since.messages.find((m) => m.id === copy.id)?.attachment?.url).toBe(`/media/messages/${many.id}`);
    const again = await asFan.trpc.messages.send.mutate({ username: creator.username, content: 'thanks', replyToId: m1.id, clientId: randomUUID() });
    expect(again.replyTo?.mediaUrl).toBe(`/media/messages/${sold.id}`);
    await asCreator.trpc.messages.edit.mutate({ id: creatorReply.id, content: 'see above, paid' });
    await announceAttachment(app.deps.db, app.deps.realtime, later.id);
    await expect
      .poll(() =>
        [
          has('message:updated', (p) => p.message?.content === 'see above, paid' && JSON.stringify(p).includes(`"mediaUrl":"/media/messages/${sold.id}"`)),
          has('message:attachment', (p) => p.messageId === m2.id && JSON.stringify(p).includes(`"url":"/media/messages/${later.id}"`)),
        ].every(Boolean),
      )
      .toBe(true);
  });
});
