import { CheckCircle2, Loader2, XCircle } from 'lucide-react';
import { FILE_STATE_TEXTS as T } from '../../../common/file-state-texts';
import { Button } from '../../components/ui/button';
import type { SentPost } from './use-sent-files';

/**
 * Each file of the post of several just sent, as the worker processes it (issue 29 item 2):
 * waiting, processing with its own bar, ready, or failed with the reason the creator reads.
 */
export function SentFiles({ sent, onDismiss }: { sent: SentPost; onDismiss: () => void }) {
  const settled = sent.files.every((f) => f.state === 'ready' || f.state === 'failed');
  return (
    <section aria-label={T.title} className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4">
      <div className="flex items-center justify-between gap-3">
        <h2 className="text-sm font-semibold text-foreground">{T.title}</h2>
        {settled ? (
          <Button size="sm" variant="secondary" onClick={onDismiss}>
            {T.dismiss}
          </Button>
        ) : null}
      </div>
      <ol className="flex flex-col gap-2" data-testid="sent-files">
        {sent.files.map((file, index) => (
          <li key={index} aria-label={file.name} className="flex items-center gap-3 text-sm">
            <span className="w-6 shrink-0 text-center font-semibold tabular-nums text-muted">{index + 1}</span>
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="truncate text-foreground">{file.name}</p>
              {file.state === 'processing' ? (
                <div
                  role="progressbar"
                  aria-label={T.processingOf(file.name)}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={file.percent ?? 0}
                  className="h-1.5 overflow-hidden rounded-full bg-border"
                >
                  <div className="h-full bg-accent transition-[width]" style={{ width: `${file.percent ?? 0}%` }} />
                </div>
              ) : null}
              {file.state === 'failed' && file.reason ? <p className="text-xs text-red-300">{file.reason}</p> : null}
            </div>
            <span data-testid="file-state" className="flex shrink-0 items-center gap-1.5 text-xs text-muted">
              {file.state === 'ready' ? (
                <CheckCircle2 aria-hidden="true" className="size-4 text-emerald-400" />
              ) : file.state === 'failed' ? (
                <XCircle aria-hidden="true" className="size-4 text-red-400" />
              ) : file.state === 'processing' ? (
                <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
              ) : null}
              {file.state === 'processing' ? `${T.processing} ${file.percent ?? 0}%` : T[file.state]}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
