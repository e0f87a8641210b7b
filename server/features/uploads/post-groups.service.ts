import { randomUUID } from 'node:crypto';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { uploadRuleFor, type UploadMetadata, type UploadRule } from '../../../common/uploads';
import type { AppDeps } from '../../../core/deps';
import { lockCreator } from '../../../domain/processing/processing-limit.queries';
import { applyPostEffects } from '../../../domain/posts/effects';
import { createPostOfFiles } from '../../../domain/posts/transitions';
import { chosenPostFields } from './post-fields';
import { findFinishedUpload } from './uploads.queries';
import { claimGroupUpload, findGroupUploads, linkGroupToPost } from './post-groups.queries';
import { storeUploadedBytes, UploadRefusal, type FinishInput, type FinishResult } from './uploads.service';

/**
 * A post of several files (issue 29): each file is a tus upload of its own carrying the same
 * `uploadGroup`, its place (`fileIndex`) and the number of files (`fileCount`). Each finish
 * stores its bytes and claims its place; the finish that completes the group makes the post, in
 * the same transaction, with one `post_files` row per file, and queues it once. The creator's row
 * is locked while counting, so two last files arriving together make one post.
 */

type GroupMeta = UploadMetadata & { uploadGroup: string; fileIndex: number; fileCount: number };

export const isGroupUpload = (meta: UploadMetadata): meta is GroupMeta =>
  meta.uploadGroup !== undefined && meta.fileIndex !== undefined && meta.fileCount !== undefined;

export async function finishGroupUpload(
  deps: Pick<AppDeps, 'db' | 'storage' | 'queues' | 'log' | 'config' | 'realtime'>,
  input: FinishInput,
  meta: GroupMeta,
  rule: UploadRule,
): Promise<FinishResult> {
  const sourceKey = `uploads/${input.userId}/${meta.uploadGroup}/${meta.fileIndex}-${randomUUID()}.${rule.ext}`;
  await storeUploadedBytes(deps, input, sourceKey);

  const outcome = await deps.db.transaction().execute(async (trx) => {
    await lockCreator(trx, input.userId);
    const claimed = await claimGroupUpload(trx, {
      id: input.uploadId,
      userId: input.userId,
      filename: meta.filename,
      byteSize: input.receivedSize,
      group: meta.uploadGroup,
      position: meta.fileIndex,
      size: meta.fileCount,
      sourceKey,
    });
    if (!claimed) return { kind: 'lost' as const };
    const members = await findGroupUploads(trx, input.userId, meta.uploadGroup);
    if (members.some((m) => m.group_size !== meta.fileCount)) {
      throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata, 'fileCount differs between the files of one post');
    }
    if (members.length < meta.fileCount) return { kind: 'waiting' as const };
    const files = members.map((m) => {
      const kind = uploadRuleFor(m.filename);
      if (!kind || !m.source_key || m.group_position === null) throw new UploadRefusal(400, 'INVALID_METADATA', UPLOAD_TEXTS.invalidMetadata);
      return { position: m.group_position, mediaKind: kind.mediaKind, filename: m.filename, sourceKey: m.source_key, byteSize: Number(m.byte_size) };
    });
    const postId = randomUUID();
    const effects = await createPostOfFiles(
      trx,
      { ...chosenPostFields(meta), id: postId, creatorId: input.userId, mediaKind: files[0]!.mediaKind, originalFilename: files[0]!.filename },
      files,
    );
    await linkGroupToPost(trx, input.userId, meta.uploadGroup, postId);
    return { kind: 'created' as const, postId, effects };
  });

  if (outcome.kind === 'lost') {
    // this upload (or its place) was finished before: its bytes are the first finish's
    await deps.storage.delete(sourceKey).catch(() => {});
    const winner = await findFinishedUpload(deps.db, input.uploadId);
    return { postId: winner?.post_id ?? null, created: false };
  }
  if (outcome.kind === 'waiting') return { postId: null, created: true };
  await applyPostEffects(deps, outcome.effects);
  return { postId: outcome.postId, created: true };
}
