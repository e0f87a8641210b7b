import { Check, Send, Save } from 'lucide-react';
import { VAULT_TEXTS as T } from '../../../common/vault-texts';
import { Button } from '../../components/ui/button';

type Props = { pickedCount: number; text: string; onText: (text: string) => void; pending: boolean; onSubmit: (status: 'published' | 'draft') => void };

/** The new post made of the picked files: how many are picked, its text, and Save draft or Publish. */
export function VaultNewPost({ pickedCount, text, onText, pending, onSubmit }: Props) {
  return (
    <section aria-label={T.newPost} className="flex flex-col gap-3 rounded-card border border-border p-4">
      <p className="flex items-center gap-2 text-sm font-semibold text-foreground">
        <Check aria-hidden="true" className="size-4 text-violet-300" />
        {T.selected(pickedCount)}
      </p>
      <label className="flex flex-col gap-1 text-sm text-foreground">
        {T.postText}
        <textarea
          value={text}
          onChange={(e) => onText(e.target.value)}
          rows={3}
          maxLength={2000}
          className="w-full rounded-xl border border-border bg-surface px-3.5 py-3 text-sm text-foreground outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40"
        />
      </label>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" disabled={pickedCount === 0 || pending} onClick={() => onSubmit('draft')}>
          <Save aria-hidden="true" className="size-4" />
          {T.saveDraft}
        </Button>
        <Button disabled={pickedCount === 0 || pending} loading={pending} onClick={() => onSubmit('published')}>
          <Send aria-hidden="true" className="size-4" />
          {T.publish}
        </Button>
      </div>
    </section>
  );
}
