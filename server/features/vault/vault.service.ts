import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { MediaVariant } from '../../../common/enums';
import { VAULT_TEXTS } from '../../../common/vault-texts';
import type { VaultFileRef, VaultListInput, VaultPostInput } from '../../../common/vault-schemas';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import { parseHashtags } from '../../../common/uploads';
import { fromCents } from '../../../common/money';
import { readCents } from '../../../core/db/cents';
import type { AppDeps } from '../../../core/deps';
import { applyPostEffects } from '../../../domain/posts/effects';
import { createPostFromVault } from '../../../domain/posts/transitions';
import { mediaUrl } from '../../shared/post-cards/post-cards';
import { findMessagesUsingKey, findOwnProcessedFiles, findPostsUsingKey, findVaultKey } from '../../../domain/posts/vault.queries';
import { deleteVaultFile } from '../../../domain/posts/vault-files';
import { findVaultFiles } from './vault.queries';

const VAULT_PAGE = 200;

export interface VaultFileDto {
  postId: string;
  position: number;
  kind: string;
  filename: string | null;
  contentType: string;
  thumbUrl: string;
  usedIn: { id: string; title: string | null; text: string | null; status: string }[];
  createdAt: Date;
}

/** The caller's vault: every file they uploaded and had processed, newest first (the latest 200). */
export async function vaultFiles(deps: Pick<AppDeps, 'db'>, creatorId: string, input: VaultListInput): Promise<VaultFileDto[]> {
  const rows = await findVaultFiles(deps.db, creatorId, input, VAULT_PAGE);
  return rows.map((r) => ({
    postId: r.post_id,
    position: r.position,
    kind: r.kind,
    filename: r.filename,
    contentType: r.content_type,
    // the owner's own media route: every variant is theirs to see
    thumbUrl: mediaUrl(r.post_id, r.kind === 'video' ? 'poster' : r.kind === 'image' ? 'thumb' : 'original', r.position),
    usedIn: r.used_in,
    createdAt: r.created_at,
  }));
}

/**
 * A new post of files from the caller's vault, in the order given, without uploading them
 * again: the post shares their stored objects. A file that is not in one of the caller's
 * processed posts (another creator's, an unknown one) refuses the whole post: FORBIDDEN.
 */
export async function postFromVault(
  deps: Pick<AppDeps, 'db' | 'queues' | 'log' | 'config' | 'realtime'>,
  creatorId: string,
  input: VaultPostInput,
): Promise<{ postId: string }> {
  const postId = randomUUID();
  const effects = await deps.db.transaction().execute(async (trx) => {
    const rows = await findOwnProcessedFiles(trx, creatorId, input.files);
    const files = input.files.map((ref, position) => {
      const variants = rows.filter((r) => r.post_id === ref.postId && r.position === ref.position);
      if (variants.length === 0) throw new TRPCError({ code: 'FORBIDDEN', message: VAULT_TEXTS.notYours });
      return {
        position,
        mediaKind: variants[0]!.kind,
        filename: variants[0]!.filename,
        variants: variants.map((v) => ({
          variant: v.variant as MediaVariant,
          storageKey: v.storage_key,
          contentType: v.content_type,
          byteSize: Number(v.byte_size),
          width: v.width,
          height: v.height,
          durationSeconds: v.duration_seconds === null ? null : Number(v.duration_seconds),
        })),
      };
    });
    return createPostFromVault(
      trx,
      {
        id: postId,
        creatorId,
        title: input.title.trim() || null,
        text: input.postText.trim() || null,
        hashtags: parseHashtags(input.hashtags, input.postText),
        isPremium: input.isPaidContent,
        isNsfw: input.isNsfw,
        targetStatus: input.status,
        mediaKind: files[0]!.mediaKind,
        originalFilename: files[0]!.filename,
        optimisticId: null,
      },
      files,
    );
  });
  await applyPostEffects(deps, effects);
  return { postId };
}

/** Messages named in a vault file's uses, at most (the dialog says how many there are in all). */
const USES_MESSAGES = 20;

export interface VaultFileUsesDto {
  posts: { id: string; title: string | null; text: string | null; status: string; onlyFile: boolean }[];
  messages: { id: string; recipient: string | null; toMany: boolean; price: string | null; sentAt: Date }[];
}

/** Where one of the caller's vault files is used, for the delete dialog; FORBIDDEN for a file not theirs. */
export async function vaultFileUses(deps: Pick<AppDeps, 'db'>, creatorId: string, ref: VaultFileRef): Promise<VaultFileUsesDto> {
  const key = await findVaultKey(deps.db, creatorId, ref);
  if (!key) throw new TRPCError({ code: 'FORBIDDEN', message: VAULT_TEXTS.notYours });
  const [posts, messages] = await Promise.all([findPostsUsingKey(deps.db, creatorId, key), findMessagesUsingKey(deps.db, creatorId, key, USES_MESSAGES)]);
  return {
    posts: posts.map((p) => ({ id: p.id, title: p.title, text: p.text, status: p.status, onlyFile: p.file_count < 2 })),
    messages: messages.map((m) => ({ id: m.id, recipient: m.recipient, toMany: m.mass_message_id !== null, price: fromCents(readCents(m.price_cents)), sentAt: m.created_at })),
  };
}

/**
 * Deletes one of the caller's vault files (domain/posts/vault-files.ts says what that means for
 * the posts and messages holding it). FORBIDDEN for a file not theirs; PRECONDITION_FAILED naming
 * the posts when it is one's only file.
 */
export async function deleteFromVault(
  deps: Pick<AppDeps, 'db' | 'queues' | 'log' | 'config' | 'realtime'>,
  creatorId: string,
  ref: VaultFileRef,
): Promise<{ removedFrom: number }> {
  const result = await deleteVaultFile(deps.db, creatorId, ref);
  if (result.outcome === 'not-found') throw new TRPCError({ code: 'FORBIDDEN', message: VAULT_TEXTS.notYours });
  if (result.outcome === 'only-file') {
    const titles = result.posts.map((p) => `'${p.title || p.text?.slice(0, 40) || VAULT_USE_TEXTS.untitled}'`).join(', ');
    throw new TRPCError({ code: 'PRECONDITION_FAILED', message: VAULT_USE_TEXTS.onlyFile(titles) });
  }
  await applyPostEffects(deps, result.effects);
  return { removedFrom: result.removedFrom };
}
