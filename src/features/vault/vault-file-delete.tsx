import { Link } from '@tanstack/react-router';
import { Trash2 } from 'lucide-react';
import { useState } from 'react';
import { formatRand } from '../../../common/format';
import { VAULT_USE_TEXTS as T } from '../../../common/vault-use-texts';
import { VAULT_TEXTS } from '../../../common/vault-texts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

interface FileRef {
  postId: string;
  position: number;
}

/**
 * Delete a vault file (issue 29 item 3): asks first, saying where it is used (the posts, linked,
 * and the messages that carried it), read when the dialog opens. The server decides (a post's only
 * file is refused with its title, which the toast shows).
 */
export function DeleteVaultFile({ file, name }: { file: FileRef; name: string }) {
  const [open, setOpen] = useState(false);
  const utils = trpc.useUtils();
  const remove = trpc.vault.deleteFile.useMutation();
  const confirm = async () => {
    try {
      await remove.mutateAsync(file);
      notify.success({ title: T.deleted });
      await utils.vault.files.invalidate();
    } catch (error) {
      notify.error({ title: VAULT_TEXTS.title, description: error instanceof Error ? error.message : String(error) });
    }
  };
  return (
    <ConfirmDialog
      title={T.deleteTitle}
      description={T.deleteBody}
      confirmLabel={T.confirm}
      open={open}
      onOpenChange={setOpen}
      onConfirm={confirm}
      trigger={
        <Button
          variant="secondary"
          size="icon"
          aria-label={T.delete(name)}
          className="absolute top-1.5 right-1.5 size-8 bg-black/70 text-white hover:bg-red-900/80"
          onClick={() => setOpen(true)}
        >
          <Trash2 aria-hidden="true" className="size-4" />
        </Button>
      }
    >
      {open ? <FileUses file={file} /> : null}
    </ConfirmDialog>
  );
}

function FileUses({ file }: { file: FileRef }) {
  const uses = trpc.vault.fileUses.useQuery(file);
  if (uses.isPending) {
    return (
      <div aria-label={T.loadingUses} className="flex flex-col gap-2">
        <Skeleton className="h-4 w-2/3" />
        <Skeleton className="h-4 w-1/2" />
      </div>
    );
  }
  if (!uses.data) return null;
  const { posts, messages } = uses.data;
  if (posts.length === 0 && messages.length === 0) return <p className="text-sm text-muted">{T.unused}</p>;
  return (
    <div className="flex max-h-60 flex-col gap-3 overflow-y-auto text-sm" data-testid="vault-file-uses">
      {posts.length > 0 ? (
        <div>
          <p className="font-medium text-foreground">{T.inPosts}</p>
          <ul className="mt-1 flex flex-col gap-1">
            {posts.map((p) => (
              <li key={p.id} className="flex flex-wrap items-baseline gap-x-2">
                <Link to="/post/$id" params={{ id: p.id }} className="text-violet-300 hover:underline">
                  {p.title || p.text || T.untitled}
                </Link>
                <span className="text-xs text-subtle">{VAULT_TEXTS.uses[p.status] ?? p.status}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {messages.length > 0 ? (
        <div>
          <p className="font-medium text-foreground">{T.inMessages(messages.length)}</p>
          <ul className="mt-1 flex flex-col gap-1">
            {messages.map((m) => (
              <li key={m.id} className="text-muted">
                {m.toMany || !m.recipient ? T.massMessage : T.to(m.recipient)}
                {m.price ? ` · ${formatRand(m.price)}` : ''}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  );
}
