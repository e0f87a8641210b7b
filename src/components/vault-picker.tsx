import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { FileText, Images, Music } from 'lucide-react';
import type { MessageAttachmentDto } from '../../common/message-dtos';
import { VAULT_TEXTS } from '../../common/vault-texts';
import { VAULT_USE_TEXTS as T } from '../../common/vault-use-texts';
import { DIALOG_BOX_CLASS, DialogActions, DialogHeading, DialogOverlay } from './ui/dialog-parts';
import { Skeleton } from './ui/skeleton';
import { cn } from '../lib/cn';
import { notify } from '../lib/toast';
import { trpc } from '../lib/trpc';

/**
 * 'From vault' in a creator's message composer and message to many (issue 29 item 3): their vault's files in a grid; picking
 * one makes a ready attachment of it on the server (messages.attachFromVault: a copy, no upload),
 * which the form then sends like an uploaded file, with or without a price.
 */
export default function VaultPicker({ open, onOpenChange, onPicked }: { open: boolean; onOpenChange: (open: boolean) => void; onPicked: (attachment: MessageAttachmentDto) => void }) {
  const files = trpc.vault.files.useQuery({}, { enabled: open });
  const attach = trpc.messages.attachFromVault.useMutation({
    onSuccess: (attachment) => {
      onPicked(attachment);
      onOpenChange(false);
    },
    onError: (error) => notify.error({ title: 'Error', description: error.message || T.notForMessages }),
  });
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => !attach.isPending && onOpenChange(next)}>
      <AlertDialog.Portal>
        <DialogOverlay />
        <AlertDialog.Content className={cn(DIALOG_BOX_CLASS, 'flex max-h-[85vh] flex-col gap-4 md:max-w-lg')}>
          <DialogHeading icon={Images} tone="accent" title={T.pickTitle} description={T.pickDescription} />
          <div className="min-h-0 overflow-y-auto">
            {files.isPending ? (
              <div className="grid grid-cols-3 gap-2">
                {Array.from({ length: 6 }, (_, i) => (
                  <Skeleton key={i} className="aspect-square rounded-xl" />
                ))}
              </div>
            ) : files.data && files.data.length > 0 ? (
              <ul aria-label={VAULT_TEXTS.title} className="grid grid-cols-3 gap-2">
                {files.data.map((file) => {
                  const name = file.filename ?? file.kind;
                  const busy = attach.isPending && attach.variables?.postId === file.postId && attach.variables.position === file.position;
                  return (
                    <li key={`${file.postId}:${file.position}`}>
                      <button
                        type="button"
                        aria-label={T.attach(name)}
                        disabled={attach.isPending}
                        onClick={() => attach.mutate({ postId: file.postId, position: file.position })}
                        className="relative block aspect-square w-full overflow-hidden rounded-xl border border-border bg-surface outline-none hover:border-accent focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-60"
                      >
                        {file.kind === 'image' || file.kind === 'video' ? (
                          <img src={file.thumbUrl} alt="" loading="lazy" className="absolute inset-0 size-full object-cover" />
                        ) : (
                          <span className="flex size-full items-center justify-center text-muted">
                            {file.kind === 'audio' ? <Music aria-hidden="true" className="size-6" /> : <FileText aria-hidden="true" className="size-6" />}
                          </span>
                        )}
                        <span className="absolute inset-x-0 bottom-0 truncate bg-black/70 px-2 py-1 text-left text-[11px] text-white">{busy ? '…' : name}</span>
                      </button>
                    </li>
                  );
                })}
              </ul>
            ) : (
              <p className="rounded-card border border-border p-6 text-center text-sm text-muted">{VAULT_TEXTS.empty}</p>
            )}
          </div>
          <DialogActions pending={attach.isPending}>{null}</DialogActions>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
