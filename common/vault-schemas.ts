import { z } from 'zod';
import { MEDIA_KINDS } from './enums';
import { postId } from './ids';
import { MAX_POST_FILES, PostFieldsInput } from './uploads';

/** Where a vault file is used: in a published post, a draft or a scheduled post. */
export const VAULT_USES = ['published', 'draft', 'scheduled'] as const;

export const VaultListInput = z.object({
  kind: z.enum(MEDIA_KINDS).nullish(),
  used: z.enum(VAULT_USES).nullish(),
});
export type VaultListInput = z.output<typeof VaultListInput>;

/** A vault file is named by a post it is in and its place there. */
export const VaultFileRef = z.object({ postId, position: z.number().int().min(0).max(MAX_POST_FILES - 1) });
export type VaultFileRef = z.output<typeof VaultFileRef>;

/** A new post from files of the caller's vault, in the order given, without uploading them again. */
export const VaultPostInput = PostFieldsInput.extend({
  files: z.array(VaultFileRef).min(1).max(MAX_POST_FILES, `A post holds at most ${MAX_POST_FILES} files`),
  status: z.enum(['draft', 'published']),
});
export type VaultPostInput = z.output<typeof VaultPostInput>;
