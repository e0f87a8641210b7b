import { UploadCloud } from 'lucide-react';
import { useId, useRef, useState, type DragEvent } from 'react';
import { UPLOAD_ACCEPT, UPLOAD_LIMIT_MB } from '../../../common/uploads';
import { cn } from '../../lib/cn';

export const FILE_INPUT_LABEL = 'Choose a file';

/**
 * Drop one file here, or pick it: the zone is a label for a real file input (Tab reaches it,
 * Enter or Space opens the picker), so assistive technology and keyboards need nothing special.
 * The input lists the spec's extensions; the form checks the file anyway (drops and pickers can
 * bring anything).
 */
export function FileDropZone({ onFile, onFiles, disabled }: { onFile: (file: File) => void; onFiles?: (files: File[]) => void; disabled?: boolean }) {
  // several files at once make a post of several (issue 29)
  const take = (list: FileList | null | undefined) => {
    const files = [...(list ?? [])];
    if (files.length > 1 && onFiles) onFiles(files);
    else if (files[0]) onFile(files[0]);
  };
  const id = useId();
  const hintId = `${id}-hint`;
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (disabled) return;
    take(event.dataTransfer.files);
  };

  return (
    <div
      data-testid="drop-zone"
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      className={cn(
        'relative flex flex-col items-center justify-center gap-3 rounded-card border-2 border-dashed px-6 py-10 text-center transition-colors',
        'focus-within:border-accent focus-within:bg-accent-soft',
        over ? 'border-accent bg-accent-soft' : 'border-border-strong bg-canvas/40 hover:border-accent/60',
        disabled && 'pointer-events-none opacity-60',
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-violet-200 ring-1 ring-accent/40">
        <UploadCloud aria-hidden="true" className="size-6" />
      </span>
      <div className="flex flex-col gap-1">
        <p className="font-semibold text-foreground">
          Drag and drop a file here, or{' '}
          <label htmlFor={id} className="cursor-pointer text-violet-300 underline-offset-4 hover:underline">
            {FILE_INPUT_LABEL.toLowerCase()}
          </label>
        </p>
        <p id={hintId} className="text-xs text-subtle">
          Images up to {UPLOAD_LIMIT_MB.image}MB, audio up to {UPLOAD_LIMIT_MB.audio}MB, documents up to {UPLOAD_LIMIT_MB.document}MB, video up
          to {UPLOAD_LIMIT_MB.video}MB.
        </p>
      </div>
      <input
        ref={input}
        id={id}
        type="file"
        accept={UPLOAD_ACCEPT}
        aria-label={FILE_INPUT_LABEL}
        aria-describedby={hintId}
        disabled={disabled}
        multiple={onFiles !== undefined}
        className="absolute inset-0 size-full cursor-pointer opacity-0"
        onChange={(event) => {
          const files = event.target.files;
          take(files);
          // cleared, so picking the same file again (after a refusal, or to resume) fires again
          event.target.value = '';
        }}
      />
    </div>
  );
}
