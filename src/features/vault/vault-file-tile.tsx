import { FileText, Music } from 'lucide-react';
import { VAULT_TEXTS as T } from '../../../common/vault-texts';
import { cn } from '../../lib/cn';
import { DeleteVaultFile } from './vault-file-delete';

type VaultFile = { postId: string; position: number; kind: string; filename: string | null; thumbUrl: string; usedIn: unknown[] };

/** One vault file: a button that picks it (showing its place in the order picked) and its bin. */
export function VaultFileTile({ file, order, onToggle }: { file: VaultFile; order: number; onToggle: () => void }) {
  const name = file.filename ?? file.kind;
  return (
    <li className="relative">
      <button
        type="button"
        aria-pressed={order >= 0}
        aria-label={T.select(name)}
        onClick={onToggle}
        className={cn(
          'group relative block aspect-square w-full overflow-hidden rounded-xl border bg-surface-raised outline-none focus-visible:ring-2 focus-visible:ring-accent',
          order >= 0 ? 'border-accent ring-2 ring-accent' : 'border-border',
        )}
      >
        {file.kind === 'image' || file.kind === 'video' ? (
          <img src={file.thumbUrl} alt="" loading="lazy" className="absolute inset-0 size-full object-cover" />
        ) : (
          <span className="flex size-full items-center justify-center text-muted">
            {file.kind === 'audio' ? <Music aria-hidden="true" className="size-6" /> : <FileText aria-hidden="true" className="size-6" />}
          </span>
        )}
        {order >= 0 ? (
          <span className="absolute top-1.5 left-1.5 flex size-6 items-center justify-center rounded-full bg-accent text-xs font-bold text-white">{order + 1}</span>
        ) : null}
        <span className="absolute inset-x-0 bottom-0 truncate bg-black/70 px-2 py-1 text-left text-[11px] text-white">
          {name} · {T.usedIn(file.usedIn.length)}
        </span>
      </button>
      <DeleteVaultFile file={{ postId: file.postId, position: file.position }} name={name} />
    </li>
  );
}
