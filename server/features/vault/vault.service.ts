import { randomUUID } from 'node:crypto';
import { TRPCError } from '@trpc/server';
import type { MediaVariant } from '../../../common/enums';
import { VAULT_TEXTS } from '../../../common/vault-texts';
import type { VaultListInput, VaultPostInput } from '../../../common/vault-schemas';
import { parseHashtags } from '../../../common/uploads';
import type { AppDeps } from '../../../core/deps';
import { applyPostEffects } from '../../../domain/posts/effects';
import { createPostFromVault } from '../../../domain/posts/transitions';
import { mediaUrl } from '../../shared/post-cards/post-cards';
import { findOwnProcessedFiles, findVaultFiles } from './vault.queries';

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
