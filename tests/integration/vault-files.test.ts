import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { VAULT_TEXTS } from '../../common/vault-texts';
import { makePost, makeUser, fixtureBytes } from '../helpers/factories';
import { useFileServer } from '../helpers/file-server';
import { clientAs, expectTrpcError } from '../helpers/trpc';
import { waitFor } from '../helpers/tus';

// The media vault's files (issue 29 item 3): deleting one (it leaves the posts that hold it, never
// a post's last file, and its stored objects go by the durable deletion job), and sending one in a
// message without uploading it (a copy the message owns, with or without a price).

const app = useFileServer({ emptyUsers: true });

const fields = { title: '', postText: 'from the vault', hashtags: '', isPaidContent: false, isNsfw: false, status: 'published' as const };
const filesOf = (postId: string) =>
  app.deps.db.selectFrom('media_files').select(['position', 'variant', 'storage_key']).where('post_id', '=', postId).where('variant', '=', 'original').orderBy('position').execute();
const text = async (res: Response) => Buffer.from(await res.arrayBuffer()).toString();

describe('deleting a file from the vault', () => {
  it('says where it is used, refuses a post\'s only file and another creator, then leaves every post holding it and deletes its objects', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const asCreator = await clientAs(app, creator.id);
    const a = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, title: 'Sunrise' });
    const b = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, title: 'Beach' });
    const e = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, title: 'Forest' });
    // two posts of several files share a's object: c = [a, b], d = [e, a]
    const c = (await asCreator.trpc.vault.createPost.mutate({ ...fields, title: 'Set one', files: [{ postId: a.id, position: 0 }, { postId: b.id, position: 0 }] })).postId;
    const d = (await asCreator.trpc.vault.createPost.mutate({ ...fields, title: 'Set two', files: [{ postId: e.id, position: 0 }, { postId: a.id, position: 0 }] })).postId;

    const uses = await asCreator.trpc.vault.fileUses.query({ postId: a.id, position: 0 });
    expect(uses.posts.map((p) => [p.title, p.onlyFile])).toEqual([['Sunrise', true], ['Set one', false], ['Set two', false]]);
    expect(uses.messages).toEqual([]);

    // another creator: neither the uses nor the deletion (as for a made-up file)
    const other = await makeUser(app.deps.db, { isCreator: true });
    const asOther = await clientAs(app, other.id);
    await expectTrpcError(asOther.trpc.vault.fileUses.query({ postId: a.id, position: 0 }), 'FORBIDDEN', VAULT_TEXTS.notYours);
    await expectTrpcError(asOther.trpc.vault.deleteFile.mutate({ postId: a.id, position: 0 }), 'FORBIDDEN', VAULT_TEXTS.notYours);
    await expectTrpcError(asCreator.trpc.vault.deleteFile.mutate({ postId: randomUUID(), position: 0 }), 'FORBIDDEN', VAULT_TEXTS.notYours);
    // a fan is no creator
    const fan = await makeUser(app.deps.db);
    const asFan = await clientAs(app, fan.id);
    await expectTrpcError(asFan.trpc.vault.deleteFile.mutate({ postId: a.id, position: 0 }), 'FORBIDDEN');

    // the only file of 'Sunrise': refused, naming it, and nothing changed
    const only = await expectTrpcError(asCreator.trpc.vault.deleteFile.mutate({ postId: a.id, position: 0 }), 'PRECONDITION_FAILED');
    expect(only.message).toContain("'Sunrise'");
    expect((await filesOf(c)).map((f) => f.storage_key)).toEqual([a.keys.original, b.keys.original]);
    expect(await app.deps.storage.exists(a.keys.original!)).toBe(true);

    // once 'Sunrise' is deleted (its shared objects stay for c and d), the file can go
    await asCreator.trpc.posts.delete.mutate({ postId: a.id });
    const ref = (await asCreator.trpc.vault.files.query({})).find((f) => f.usedIn.some((p) => p.id === c) && f.usedIn.some((p) => p.id === d))!;
    expect(ref).toMatchObject({ postId: c, position: 0 });
    expect(await asCreator.trpc.vault.deleteFile.mutate({ postId: c, position: 0 })).toEqual({ removedFrom: 2 });

    // c keeps b, moved up to the first place; d keeps e; both as one file each
    expect((await filesOf(c)).map((f) => [f.position, f.storage_key])).toEqual([[0, b.keys.original]]);
    expect((await filesOf(d)).map((f) => [f.position, f.storage_key])).toEqual([[0, e.keys.original]]);
    expect((await app.deps.db.selectFrom('post_files').select('position').where('post_id', 'in', [c, d]).execute()).map((f) => f.position)).toEqual([0, 0]);
    const seen = await asFan.trpc.posts.byId.query({ id: c });
    // a post of one file again: no carousel
    expect(seen.files ?? null).toBeNull();
    expect(seen.media?.url).toBe(`/media/${c}/web`);
    expect(await text(await asFan.fetch(`/media/${c}/web`))).toBe(fixtureBytes(b.id, 'web').toString());
    expect((await asFan.fetch(`/media/${c}/1/web`)).status).toBe(404);
    expect((await asFan.fetch(`/media/${d}/1/web`)).status).toBe(404);

    // its every variant leaves storage by the durable job; the others' objects stay
    await waitFor(async () => !(await app.deps.storage.exists(a.keys.original!)) && !(await app.deps.storage.exists(a.keys.thumb!)), 30_000, 'the vault file deleted');
    expect(await app.deps.storage.exists(b.keys.original!)).toBe(true);
    expect(await app.deps.storage.exists(e.keys.web!)).toBe(true);
    expect((await asCreator.trpc.vault.files.query({})).some((f) => f.usedIn.some((p) => p.id === a.id))).toBe(false);
  });
});

describe('a message with a file from the vault', () => {
  it('attaches a copy without uploading, priced or free, locked and unlocked like an upload; another creator\'s file is refused', async () => {
    const creator = await makeUser(app.deps.db, { isCreator: true });
    const fan = await makeUser(app.deps.db);
    const asCreator = await clientAs(app, creator.id);
    const asFan = await clientAs(app, fan.id);
    const post = await makePost(app.deps.db, app.deps.storage, { creatorId: creator.id, title: 'Studio' });
    const ref = { postId: post.id, position: 0 };

    // another creator, a fan, a made-up file: refused, and no row is made
    const other = await makeUser(app.deps.db, { isCreator: true });
    await expectTrpcError((await clientAs(app, other.id)).trpc.messages.attachFromVault.mutate(ref), 'FORBIDDEN', VAULT_TEXTS.notYours);
    await expectTrpcError(asFan.trpc.messages.attachFromVault.mutate(ref), 'FORBIDDEN', VAULT_TEXTS.notYours);
    await expectTrpcError(asCreator.trpc.messages.attachFromVault.mutate({ postId: randomUUID(), position: 0 }), 'FORBIDDEN', VAULT_TEXTS.notYours);
    expect(await app.deps.db.selectFrom('message_attachments').select('id').execute()).toEqual([]);

    const uploadsBefore = (await app.deps.db.selectFrom('uploads').select('id').execute()).length;
    const paidFile = await asCreator.trpc.messages.attachFromVault.mutate(ref);
    expect(paidFile).toMatchObject({ kind: 'image', status: 'ready' });
    const paid = await asCreator.trpc.messages.send.mutate({ username: fan.username, content: 'From my vault', attachmentId: paidFile.id, price: '25', clientId: `vault-paid-${paidFile.id}` });
    expect(paid.price).toBe('25.00');
    expect((await app.deps.db.selectFrom('uploads').select('id').execute()).length).toBe(uploadsBefore);

    const url = `/media/messages/${paidFile.id}`;
    const locked = (await asFan.trpc.messages.thread.query({ username: creator.username })).messages.find((m) => m.id === paid.id)!;
    expect(locked).toMatchObject({ locked: true, attachment: { kind: 'image', url: null } });
    expect((await asFan.fetch(url)).status).toBe(403);
    expect(await text(await asCreator.fetch(url))).toBe(fixtureBytes(post.id, 'original').toString());
    await asFan.trpc.messages.unlock.mutate({ messageId: paid.id, confirmedAmount: '25.00', idempotencyKey: randomUUID() });
    expect(await text(await asFan.fetch(url))).toBe(fixtureBytes(post.id, 'original').toString());

    // free: open at once; each message has its own copy (an attachment is sent once)
    const freeFile = await asCreator.trpc.messages.attachFromVault.mutate(ref);
    expect(freeFile.id).not.toBe(paidFile.id);
    const free = await asCreator.trpc.messages.send.mutate({ username: fan.username, attachmentId: freeFile.id, clientId: `vault-free-${freeFile.id}` });
    expect(free.attachment?.url).toBeTruthy();
    expect((await asFan.fetch(`/media/messages/${freeFile.id}`)).status).toBe(200);

    // a message to many takes one too (a ready file: no wait for processing)
    const massFile = await asCreator.trpc.messages.attachFromVault.mutate(ref);
    await asCreator.trpc.massMessages.create.mutate({ audience: 'buyers', content: 'For my buyers', attachmentId: massFile.id, price: '19', clientId: `vault-mass-${massFile.id}` });

    // the vault says where it was sent
    const uses = await asCreator.trpc.vault.fileUses.query(ref);
    expect(uses.messages.map((m) => [m.toMany ? 'to many' : m.recipient, m.price])).toEqual([
      ['to many', '19.00'],
      [fan.username, null],
      [fan.username, '25.00'],
    ]);

    // the post (and the vault's object) goes; the messages keep their copies
    await asCreator.trpc.posts.delete.mutate({ postId: post.id });
    await waitFor(async () => !(await app.deps.storage.exists(post.keys.original!)), 30_000, 'the post\'s files deleted');
    expect((await asFan.fetch(url)).status).toBe(200);
    expect((await asFan.fetch(`/media/messages/${freeFile.id}`)).status).toBe(200);
  });
});
