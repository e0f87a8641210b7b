import { Plus } from 'lucide-react';
import { useId } from 'react';
import { MULTI_FILE_TEXTS } from '../../../common/multi-file-texts';
import { UPLOAD_ACCEPT } from '../../../common/uploads';

/** "Add files": picks more files for a post of several (the single-file form and the list alike). */
export function AddMoreFiles({ onAdd, disabled = false }: { onAdd: (files: File[]) => void; disabled?: boolean }) {
  const id = useId();
  return (
    <label
      htmlFor={id}
      className="inline-flex w-fit cursor-pointer items-center gap-2 rounded-xl border border-border px-3 py-2 text-sm font-medium text-foreground focus-within:ring-2 focus-within:ring-accent hover:border-border-strong"
    >
      <Plus aria-hidden="true" className="size-4" />
      {MULTI_FILE_TEXTS.addMore}
      <input
        id={id}
        type="file"
        multiple
        accept={UPLOAD_ACCEPT}
        disabled={disabled}
        className="sr-only"
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          event.target.value = '';
          if (files.length) onAdd(files);
        }}
      />
    </label>
  );
}
