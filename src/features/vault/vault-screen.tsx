import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import type { MediaKind } from '../../../common/enums';
import { MAX_POST_FILES } from '../../../common/uploads';
import { VAULT_TEXTS as T } from '../../../common/vault-texts';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { VaultFileTile } from './vault-file-tile';
import { VaultFilters, type VaultUse } from './vault-filters';
import { VaultNewPost } from './vault-new-post';

const keyOf = (f: { postId: string; position: number }) => `${f.postId}:${f.position}`;

/**
 * /create/vault (issue 29 item 3): every file the creator uploaded and had processed, in a grid,
 * filtered by kind and by where it is used (each tile says in how many posts); picking files (in
 * the order picked, shown on the tile) and writing a text makes a new post of them without
 * uploading them again (vault.createPost). Each tile's bin deletes the file after saying where it is used.
 */
export function VaultScreen() {
  const [kind, setKind] = useState<MediaKind | ''>('');
  const [used, setUsed] = useState<VaultUse | ''>('');
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

  return (
    <div className="flex flex-col gap-5">
      <VaultFilters kind={kind} onKind={setKind} used={used} onUsed={setUsed} />

      {files.isPending ? (
        <div className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {Array.from({ length: 8 }, (_, i) => (
            <Skeleton key={i} className="aspect-square rounded-xl" />
          ))}
        </div>
      ) : files.data && files.data.length > 0 ? (
        <ul aria-label={T.title} className="grid grid-cols-3 gap-2 sm:grid-cols-4">
          {files.data.map((file) => (
            <VaultFileTile key={keyOf(file)} file={file} order={picked.findIndex((p) => keyOf(p) === keyOf(file))} onToggle={() => toggle(file)} />
          ))}
        </ul>
      ) : (
        <p className="rounded-card border border-border p-6 text-center text-sm text-muted">{T.empty}</p>
      )}

      <VaultNewPost pickedCount={picked.length} text={text} onText={setText} pending={create.isPending} onSubmit={submit} />
      <Link to="/create" className="text-sm text-violet-300 hover:underline">
        ← Create
      </Link>
    </div>
  );
}
