import { AlertTriangle, FileUp, RotateCw, X } from 'lucide-react';
import { UPLOAD_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import type { UploadFailure } from './upload-machine';

/**
 * Why the upload failed, beside the form (role=alert, so it is announced), what was kept, and the
 * one action that can help: Retry when the network or the server failed, Choose another file when
 * the file itself was refused.
 */
export function UploadFailureAlert({
  failure,
  onRetry,
  onChooseAnother,
  onDismiss,
}: {
  failure: UploadFailure;
  onRetry: () => void;
  onChooseAnother: () => void;
  onDismiss: () => void;
}) {
  return (
    <div role="alert" data-testid="upload-failure" className="flex flex-col gap-3 rounded-card border border-danger/50 bg-danger/10 p-4 sm:flex-row sm:items-start">
      <AlertTriangle aria-hidden="true" className="size-5 shrink-0 text-danger" />
      <div className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <p className="font-semibold text-foreground">{failure.text.title}</p>
        {failure.text.description ? <p className="break-words text-foreground/90">{failure.text.description}</p> : null}
        <p className="text-muted">{UPLOAD_TEXTS.workKept}</p>
      </div>
      <div className="flex shrink-0 gap-2">
        {failure.action === 'retry' ? (
          <Button size="sm" onClick={onRetry}>
            <RotateCw aria-hidden="true" className="size-4" />
            {UPLOAD_TEXTS.retryUpload}
          </Button>
        ) : (
          <Button size="sm" onClick={onChooseAnother}>
            <FileUp aria-hidden="true" className="size-4" />
            {UPLOAD_TEXTS.chooseAnotherFile}
          </Button>
        )}
        <Button size="sm" variant="ghost" className="w-8 px-0" aria-label="Dismiss" title="Dismiss" onClick={onDismiss}>
          <X aria-hidden="true" className="size-4" />
        </Button>
      </div>
    </div>
  );
}
