import { FileSearch } from 'lucide-react';
import { useId, useState, type DragEvent } from 'react';
import { TRACE_TEXTS } from '../../../common/forensics';
import { formatFileSize } from '../../../common/file-size';
import { ProgressBar } from '../../components/ui/progress-bar';
import { cn } from '../../lib/cn';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { leakFileProblem, uploadLeak } from './upload-leak';

interface Sending {
  name: string;
  size: number;
  fraction: number;
}

/**
 * The suspected leak, dropped or picked (the zone is the label of a real file input: Tab reaches
 * it, Enter or Space opens the picker), checked here for type and size, then sent with a progress
 * bar. The server's answer is a toast; the new trace joins the log below, which follows it.
 */
export function LeakUpload({ postId }: { postId: string }) {
  const utils = trpc.useUtils();
  const id = useId();
  const hintId = `${id}-hint`;
  const [over, setOver] = useState(false);
  const [sending, setSending] = useState<Sending | null>(null);

  const send = async (file: File | undefined) => {
    if (!file || sending) return;
    const problem = leakFileProblem(file);
    if (problem) {
      notify.error(problem);
      return;
    }
    setSending({ name: file.name, size: file.size, fraction: 0 });
    try {
      await uploadLeak(postId, file, (fraction) => setSending((s) => (s ? { name: s.name, size: s.size, fraction } : s)));
      notify.success(TRACE_TEXTS.started);
      await utils.forensics.traces.invalidate({ postId });
    } catch (error) {
      notify.error({ title: 'Error', description: error instanceof Error ? error.message : TRACE_TEXTS.uploadFailed });
    } finally {
      setSending(null);
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    void send(event.dataTransfer.files[0]);
  };
  const percent = sending ? Math.min(100, Math.floor(sending.fraction * 100)) : 0;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-3">
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {TRACE_TEXTS.upload}
      </h2>
      <div
        data-testid="leak-drop-zone"
        onDragOver={(event) => {
          event.preventDefault();
          if (!sending) setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={onDrop}
        className={cn(
          'relative flex flex-col items-center justify-center gap-3 rounded-card border-2 border-dashed px-6 py-8 text-center transition-colors',
          'focus-within:border-accent focus-within:bg-accent-soft',
          over ? 'border-accent bg-accent-soft' : 'border-border-strong bg-canvas/40 hover:border-accent/60',
          sending && 'pointer-events-none opacity-60',
        )}
      >
        <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-violet-200 ring-1 ring-accent/40">
          <FileSearch aria-hidden="true" className="size-6" />
        </span>
        <div className="flex flex-col gap-1">
          <p className="font-semibold text-foreground">
            Drag and drop the copy here, or{' '}
            <label htmlFor={id} className="cursor-pointer text-violet-300 underline-offset-4 hover:underline">
              {TRACE_TEXTS.chooseFile.toLowerCase()}
            </label>
          </p>
          <p id={hintId} className="text-xs text-subtle">
            {TRACE_TEXTS.dropHint}
          </p>
        </div>
        <input
          id={id}
          type="file"
          accept="video/*,image/*"
          aria-label={TRACE_TEXTS.chooseFile}
          aria-describedby={hintId}
          disabled={!!sending}
          className="absolute inset-0 size-full cursor-pointer opacity-0"
          onChange={(event) => {
            void send(event.target.files?.[0]);
            // cleared, so the same file can be picked again (after a refusal, or for another trace)
            event.target.value = '';
          }}
        />
      </div>
      {sending ? (
        <div className="flex flex-col gap-2 rounded-card border border-border bg-canvas/40 p-4">
          <div className="flex items-center justify-between gap-3 text-sm">
            <span role="status" className="min-w-0 truncate font-medium text-foreground">
              {TRACE_TEXTS.uploading} {sending.name}
            </span>
            <span className="tabular-nums text-muted" data-testid="leak-upload-percent">
              {percent}%
            </span>
          </div>
          <ProgressBar
            percent={percent}
            valueText={`${percent}% (${formatFileSize(Math.round(sending.fraction * sending.size))} of ${formatFileSize(sending.size)})`}
          />
        </div>
      ) : null}
    </section>
  );
}
