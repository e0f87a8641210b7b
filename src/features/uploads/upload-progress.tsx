import { Pause, Play, X } from 'lucide-react';
import { Button } from '../../components/ui/button';
import { ProgressBar } from '../../components/ui/progress-bar';
import { formatFileSize } from './upload-format';
import type { UploadPhase, UploadProgress } from './upload-machine';

export function percentOf(progress: UploadProgress | null): number {
  if (!progress || progress.total <= 0) return 0;
  return Math.min(100, Math.floor((progress.sent / progress.total) * 100));
}

const PHASE_TEXT: Record<Exclude<UploadPhase, 'idle'>, string> = {
  uploading: 'Uploading',
  paused: 'Paused',
  stalled: 'Connection lost',
};

/** The upload's progress bar (role=progressbar, its value in %), with Pause / Resume and Cancel. */
export function UploadProgressBar({
  phase,
  progress,
  resumedFrom,
  onPause,
  onResume,
  onCancel,
}: {
  phase: Exclude<UploadPhase, 'idle'>;
  progress: UploadProgress | null;
  /** bytes the server already had when this upload was resumed after a reload */
  resumedFrom: number | null;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}) {
  const percent = percentOf(progress);
  const done = progress !== null && progress.sent >= progress.total && progress.total > 0;

  return (
    <section aria-label="Upload" className="flex flex-col gap-3 rounded-card border border-border bg-canvas/40 p-4">
      <div className="flex items-center justify-between gap-3 text-sm">
        <span className="font-medium text-foreground" role="status">
          {done ? 'Finishing...' : PHASE_TEXT[phase]}
          {resumedFrom !== null && resumedFrom > 0 && progress ? (
            <span className="font-normal text-subtle"> · resumed from {percentOf({ sent: resumedFrom, total: progress.total })}%</span>
          ) : null}
        </span>
        <span className="tabular-nums text-muted" data-testid="upload-percent">
          {percent}%
        </span>
      </div>
      <ProgressBar
        percent={percent}
        valueText={progress ? `${percent}% (${formatFileSize(progress.sent)} of ${formatFileSize(progress.total)})` : `${percent}%`}
        muted={phase !== 'uploading'}
      />
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="text-xs text-subtle tabular-nums">
          {progress ? `${formatFileSize(progress.sent)} of ${formatFileSize(progress.total)}` : null}
        </span>
        <div className="flex gap-2">
          {phase === 'uploading' ? (
            <Button variant="secondary" size="sm" onClick={onPause} disabled={done}>
              <Pause aria-hidden="true" className="size-4" />
              Pause
            </Button>
          ) : (
            <Button variant="secondary" size="sm" onClick={onResume}>
              <Play aria-hidden="true" className="size-4" />
              Resume
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={onCancel} disabled={done}>
            <X aria-hidden="true" className="size-4" />
            Cancel upload
          </Button>
        </div>
      </div>
    </section>
  );
}
