import { History, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { discardUnfinishedUpload, listUnfinishedUploads, type UnfinishedUpload } from './tus-upload';
import { formatFileSize, startedWhen } from './upload-format';
import { percentOf } from './upload-progress';

/**
 * Uploads this user started in this browser and never finished (a reload, a closed tab), which
 * the server still has: choosing the same file again continues each from where it stopped.
 * Discard forgets one here and on the server.
 */
export function StoredUploads({ userId }: { userId: string }) {
  const [uploads, setUploads] = useState<UnfinishedUpload[]>([]);

  useEffect(() => {
    let live = true;
    void listUnfinishedUploads(userId).then((found) => {
      if (live) setUploads(found);
    });
    return () => {
      live = false;
    };
  }, [userId]);

  if (uploads.length === 0) return null;

  const discard = (upload: UnfinishedUpload) => {
    setUploads((list) => list.filter((u) => u !== upload));
    void discardUnfinishedUpload(upload);
  };

  return (
    <section aria-labelledby="stored-uploads-heading" className="flex flex-col gap-3 rounded-card border border-accent/40 bg-accent-soft p-4">
      <h3 id="stored-uploads-heading" className="flex items-center gap-2 text-sm font-semibold text-foreground">
        <History aria-hidden="true" className="size-4 text-violet-200" />
        Unfinished uploads
      </h3>
      <p className="text-sm text-muted">Choose the same file again to continue where it stopped.</p>
      <ul className="flex flex-col gap-2">
        {uploads.map((upload) => {
          const name = upload.metadata.filename ?? 'Untitled file';
          return (
            <li key={upload.previous.urlStorageKey} className="flex items-center gap-3 rounded-xl bg-canvas/50 px-3 py-2">
              <div className="flex min-w-0 flex-1 flex-col">
                <span className="truncate text-sm font-medium text-foreground" title={name}>
                  {name}
                </span>
                <span className="text-xs text-subtle">
                  {percentOf({ sent: upload.offset, total: upload.size })}% of {formatFileSize(upload.size)} uploaded · started {startedWhen(upload.createdAt)}
                </span>
              </div>
              <Button variant="ghost" size="sm" onClick={() => discard(upload)} aria-label={`Discard the upload of ${name}`}>
                <Trash2 aria-hidden="true" className="size-4" />
                Discard
              </Button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
