import { History } from 'lucide-react';
import { Button } from '../../components/ui/button';
import type { UnfinishedUpload } from './tus-upload';
import { formatFileSize, startedWhen } from './upload-format';
import { percentOf } from './upload-progress';

/** The same file was being uploaded before (a reload, a lost connection): continue from the server's offset. */
export function ResumeOffer({ offer, onResume, onDecline }: { offer: UnfinishedUpload; onResume: () => void; onDecline: () => void }) {
  const percent = percentOf({ sent: offer.offset, total: offer.size });
  const what = offer.metadata.status === 'draft' ? 'saving it as a draft' : 'publishing it';
  return (
    <div role="region" aria-label="Unfinished upload" className="flex flex-col gap-3 rounded-card border border-accent/40 bg-accent-soft p-4 sm:flex-row sm:items-center">
      <History aria-hidden="true" className="size-5 shrink-0 text-violet-200" />
      <p className="flex-1 text-sm text-foreground">
        You started {what} {startedWhen(offer.createdAt)}:{' '}
        <strong className="font-semibold">{percent}%</strong> ({formatFileSize(offer.offset)} of {formatFileSize(offer.size)}) is already uploaded.
        Resuming keeps the text and options you chose then.
      </p>
      <div className="flex shrink-0 gap-2">
        <Button size="sm" onClick={onResume}>
          Resume upload
        </Button>
        <Button size="sm" variant="ghost" onClick={onDecline}>
          Start over
        </Button>
      </div>
    </div>
  );
}
