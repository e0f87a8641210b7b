import { Link, useNavigate } from '@tanstack/react-router';
import { Check, FileText, Music, Send, Save } from 'lucide-react';
import { useState } from 'react';
import { MEDIA_KINDS, type MediaKind } from '../../../common/enums';
import { MAX_POST_FILES } from '../../../common/uploads';
import { VAULT_USES } from '../../../common/vault-schemas';
import { VAULT_TEXTS as T } from '../../../common/vault-texts';
import { Button } from '../../components/ui/button';
import { Skeleton } from '../../components/ui/skeleton';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { DeleteVaultFile } from './vault-file-delete';

type Use = (typeof VAULT_USES)[number];
const keyOf = (f: { postId: string; position: number }) => `${f.postId}:${f.position}`;

/**
 * /create/vault (issue 29 item 3): every file the creator uploaded and had processed, in a grid,
 * filtered by kind and by where it is used (each tile says in how many posts); picking files (in
 * the order picked, shown on the tile) and writing a text makes a new post of them without
 * uploading them again (vault.createPost). Each tile's bin deletes the file after saying where it is used.
 */
export function VaultScreen() {
  const [kind, setKind] = useState<MediaKind | ''>('');
  const [used, setUsed] = useState<Use | ''>('');
  const [picked, setPicked] = useState<{ postId: string; position: number }[]>([]);
  const [text, setText] = useState('');
  const files = trpc.vault.files.useQuery({ kind: kind || null, used: used || null });
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const create = trpc.vault.createPost.useMutation({
    onSuccess: ({ postId }) => {
      notify.success({ title: T.created });
      setPicked([]);
      setText('');
      void utils.vault.files.invalidate();
      void navigate({ to: '/post/$id', params: { id: postId } });
    },
    onError: (error) => notify.error({ title: error.message }),
  });

  const toggle = (ref: { postId: string; position: number }) =>
    setPicked((current) =>
      current.some((p) => keyOf(p) === keyOf(ref)) ? current.filter((p) => keyOf(p) !== keyOf(ref)) : current.length < MAX_POST_FILES ? [...current, ref] : current,
    );
  const submit = (status: 'published' | 'draft') =>
    create.mutate({ files: picked, status, title: '', postText: text, hashtags: '', isPaidContent: false, isNsfw: false });

  const select = 'h-10 rounded-xl border border-border bg-surface px-3 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent outline-none';
  return (
    <div className="flex flex-col gap-5">
      <div className="flex flex-wrap gap-3">
        <label className="flex flex-col gap-1 text-xs text-muted">
          {T.kindFilter}
          <select className={select} value={kind} onChange={(e) => setKind(e.target.value as MediaKind | '')}>
            <option value="">{T.anyKind}</option>
            {MEDIA_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1 text-xs text-muted">
          {T.usedFilter}
          <select className={select} value={used} onChange={(e) => setUsed(e.target.value as Use | '')}>
            <option value="">{T.anyUse}</option>
            {VAULT_USES.map((u) => (
              <option key={u} value={u}>
                {T.uses[u]}
              </option>
            ))}
          </select>
        </label>
      </div>

      {files.isPending ? (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="aspect-square rounded-xl" />
          ))}
        </div>
      ) : files.data && files.data.length > 0 ? (
        <ul aria-label={T.title} className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {files.data.map((file) => {
            const order = picked.findIndex((p) => keyOf(p) === keyOf(file));
            const name = file.filename ?? file.kind;
            return (
              <li key={keyOf(file)} className="relative">
                <button
                  type="button"
                  aria-pressed={order >= 0}
                  aria-label={T.select(name)}
                  onClick={() => toggle(file)}
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
          })}
        </ul>
      ) : (
        <p className="rounded-card border border-border p-6 text-center text-sm text-muted">{T.empty}</p>
      )}

      <section aria-label={T.newPost} className="flex flex-col gap-3 rounded-card border border-border p-4">
        <p className="flex items-center gap-2 text-sm font-semibold text-foreground">
          <Check aria-hidden="true" className="size-4 text-violet-300" />
          {T.selected(picked.length)}
        </p>
        <label className="flex flex-col gap-1 text-sm text-foreground">
          {T.postText}
          <textarea
            value={text}
            onChange={(e) => setText(e.target.value)}
            rows={3}
            maxLength={2000}
            className="w-full rounded-xl border border-border bg-surface px-3.5 py-3 text-sm text-foreground outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40"
          />
        </label>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" disabled={picked.length === 0 || create.isPending} onClick={() => submit('draft')}>
            <Save aria-hidden="true" className="size-4" />
            {T.saveDraft}
          </Button>
          <Button disabled={picked.length === 0 || create.isPending} loading={create.isPending} onClick={() => submit('published')}>
            <Send aria-hidden="true" className="size-4" />
            {T.publish}
          </Button>
        </div>
      </section>
      <Link to="/create" className="text-sm text-violet-300 hover:underline">
        ← Create
      </Link>
    </div>
  );
}
