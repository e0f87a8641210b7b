import { VaultFileRef, VaultListInput, VaultPostInput } from '../../../common/vault-schemas';
import { creatorProcedure, router } from '../../trpc/init';
import { deleteFromVault, postFromVault, vaultFileUses, vaultFiles } from './vault.service';

/** The media vault (issue 29 item 3): /create/vault. */
export const vaultRouter = router({
  /** The caller's processed files, newest first, filtered by kind and by where they are used. */
  files: creatorProcedure.input(VaultListInput).query(({ ctx, input }) => vaultFiles(ctx, ctx.user.id, input)),
  /** A new post of files from the caller's vault; FORBIDDEN 'You can only use files from your own vault' for anyone else's. */
  createPost: creatorProcedure.input(VaultPostInput).mutation(({ ctx, input }) => postFromVault(ctx, ctx.user.id, input)),
  /** Where a vault file is used (posts, messages), for the delete dialog; FORBIDDEN for anyone else's. */
  fileUses: creatorProcedure.input(VaultFileRef).query(({ ctx, input }) => vaultFileUses(ctx, ctx.user.id, input)),
  /** Deletes a vault file from every post holding it (domain/posts/vault-files.ts); FORBIDDEN for anyone else's. */
  deleteFile: creatorProcedure.input(VaultFileRef).mutation(({ ctx, input }) => deleteFromVault(ctx, ctx.user.id, input)),
});
