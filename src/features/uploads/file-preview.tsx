import { FileText, Music, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { UploadRule } from '../../../common/uploads';
import { Button } from '../../components/ui/button';
import { formatFileSize } from './upload-format';

/** An object URL for the file while it is shown (revoked after). */
export function useObjectUrl(file: File, wanted: boolean): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => {
      URL.revokeObjectURL(next);
      setUrl(null);
    };
  }, [file, wanted]);
  return url;
}

/**
 * The picked file before it is sent: an image thumbnail, a video or audio player, or a document
 * icon, each with the name and size; Remove while nothing is being sent.
 */
export function FilePreview({ file, rule, onRemove, removable }: { file: File; rule: UploadRule; onRemove: () => void; removable: boolean }) {
  const playable = rule.category === 'image' || rule.category === 'video' || rule.category === 'audio';
  const url = useObjectUrl(file, playable);

  return (
    <figure data-testid="file-preview" className="overflow-hidden rounded-card border border-border bg-canvas/40">
      {rule.category === 'image' && url ? (
        <div className="flex max-h-80 items-center justify-center bg-black/40">
          <img src={url} alt={`Preview of ${file.name}`} className="max-h-80 w-auto max-w-full object-contain" />
        </div>
      ) : null}
      {rule.category === 'video' && url ? (
        <video src={url} controls muted playsInline preload="metadata" aria-label={`Preview of ${file.name}`} className="max-h-80 w-full bg-black" />
      ) : null}
      <figcaption className="flex items-center gap-3 px-4 py-3">
        {rule.category === 'document' ? (
          <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-violet-200 ring-1 ring-accent/30">
            <FileText aria-hidden="true" className="size-5" />
          </span>
        ) : null}
        {rule.category === 'audio' ? (
          <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent-soft text-violet-200 ring-1 ring-accent/30">
            <Music aria-hidden="true" className="size-5" />
          </span>
        ) : null}
        <div className="flex min-w-0 flex-1 flex-col">
          <span className="truncate text-sm font-semibold text-foreground" title={file.name}>
            {file.name}
          </span>
          <span className="text-xs text-subtle">
            {rule.ext.toUpperCase()} · {formatFileSize(file.size)}
          </span>
        </div>
        {removable ? (
          <Button variant="ghost" size="sm" onClick={onRemove} aria-label={`Remove ${file.name}`}>
            <X aria-hidden="true" className="size-4" />
            Remove
          </Button>
        ) : null}
      </figcaption>
      {rule.category === 'audio' && url ? (
        <div className="px-4 pb-4">
          <audio src={url} controls preload="metadata" aria-label={`Preview of ${file.name}`} className="w-full" />
        </div>
      ) : null}
    </figure>
  );
}
