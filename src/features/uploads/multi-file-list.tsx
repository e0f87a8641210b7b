import { ArrowDown, ArrowUp, FileText, Music, Video, X } from 'lucide-react';
import { MULTI_FILE_TEXTS as T } from '../../../common/multi-file-texts';
import { MAX_POST_FILES } from '../../../common/uploads';
import { Button } from '../../components/ui/button';
import { AddMoreFiles } from './add-more-files';
import { useObjectUrl } from './file-preview';
import { formatFileSize } from './upload-format';
import type { ListedFile } from './use-multi-upload';

/**
 * The files of a post of several, in the order they will be shown: each with its thumbnail,
 * name, size and, once sending, its own progress; Move earlier / Move later and Remove are
 * buttons (keyboard and screen readers need nothing else); Add files picks more, up to 20.
 */
export function MultiFileList({
  files,
  busy,
  onAdd,
  onMove,
  onRemove,
}: {
  files: ListedFile[];
  busy: boolean;
  onAdd: (files: File[]) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (index: number) => void;
}) {
  return (
    <section aria-label={T.listLabel} className="flex flex-col gap-3">
      <ol className="flex flex-col gap-2" data-testid="post-files">
        {files.map((listed, index) => (
          <li
            key={listed.key}
            aria-label={T.fileOf(index + 1, files.length, listed.file.name)}
            className="flex items-center gap-3 rounded-card border border-border bg-surface p-2.5"
          >
            <span className="w-6 shrink-0 text-center text-sm font-semibold tabular-nums text-muted">{index + 1}</span>
            <Thumb listed={listed} />
            <div className="flex min-w-0 flex-1 flex-col gap-1">
              <p className="truncate text-sm font-medium text-foreground">{listed.file.name}</p>
              <p className="text-xs text-subtle">
                {formatFileSize(listed.file.size)}
                {listed.state === 'failed' && listed.error ? <span className="text-red-300"> · {listed.error}</span> : null}
                {listed.state === 'sent' ? ' · Uploaded' : null}
              </p>
              {listed.percent !== null ? (
                <div
                  role="progressbar"
                  aria-label={`Uploading ${listed.file.name}`}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={listed.percent}
                  className="h-1.5 overflow-hidden rounded-full bg-border"
                >
                  <div className="h-full bg-accent transition-[width]" style={{ width: `${listed.percent}%` }} />
                </div>
              ) : null}
            </div>
            <div className="flex shrink-0 gap-1">
              <Button variant="ghost" size="icon" aria-label={`${T.moveUp}: ${listed.file.name}`} disabled={busy || index === 0} onClick={() => onMove(index, -1)}>
                <ArrowUp aria-hidden="true" className="size-4" />
              </Button>
              <Button
                variant="ghost"
                size="icon"
                aria-label={`${T.moveDown}: ${listed.file.name}`}
                disabled={busy || index === files.length - 1}
                onClick={() => onMove(index, 1)}
              >
                <ArrowDown aria-hidden="true" className="size-4" />
              </Button>
              <Button variant="ghost" size="icon" aria-label={`${T.remove}: ${listed.file.name}`} disabled={busy} onClick={() => onRemove(index)}>
                <X aria-hidden="true" className="size-4" />
              </Button>
            </div>
          </li>
        ))}
      </ol>
      {files.length < MAX_POST_FILES ? (
        <div>
          <AddMoreFiles onAdd={onAdd} disabled={busy} />
          <span className="ml-3 text-xs text-subtle tabular-nums">
            {files.length}/{MAX_POST_FILES}
          </span>
        </div>
      ) : null}
    </section>
  );
}

function Thumb({ listed }: { listed: ListedFile }) {
  const isImage = listed.rule.category === 'image';
  const url = useObjectUrl(listed.file, isImage);
  const Icon = listed.rule.category === 'video' ? Video : listed.rule.category === 'audio' ? Music : FileText;
  return (
    <span className="flex size-12 shrink-0 items-center justify-center overflow-hidden rounded-lg bg-canvas">
      {isImage && url ? <img src={url} alt="" className="size-full object-cover" /> : <Icon aria-hidden="true" className="size-5 text-muted" />}
    </span>
  );
}
