import { Download, FileText } from 'lucide-react';
import { formatFileSize } from '../../../common/file-size';
import { POST_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import type { Post } from '../../lib/post-cache';
import { saveMedia } from './save-media';

type Media = NonNullable<Post['media']>;

/**
 * A .doc or .docx post: the file's icon, name, kind and size, and Save Media for those entitled
 * to the file (in the post page's action row instead, which has it already).
 */
export function DocumentCard({ post, media, withSaveMedia, className }: { post: Post; media: Media; withSaveMedia: boolean; className?: string }) {
  const name = media.fileName ?? POST_TEXTS.wordDocument;
  return (
    <div
      data-testid="document-card"
      className={cn('flex items-center gap-4 rounded-xl border border-border bg-surface-raised p-4', className)}
    >
      <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-sky-500/15 text-sky-300">
        <FileText aria-hidden="true" className="size-6" />
      </span>
      <div className="flex min-w-0 flex-1 flex-col">
        <span className="truncate font-semibold text-foreground" title={name}>
          {name}
        </span>
        <span className="text-sm text-muted">
          {POST_TEXTS.wordDocument}
          {media.byteSize !== null ? ` · ${formatFileSize(media.byteSize)}` : null}
        </span>
      </div>
      {withSaveMedia && media.downloadUrl ? (
        <Button variant="secondary" size="sm" className="shrink-0 max-sm:w-8 max-sm:px-0" title={POST_TEXTS.saveMedia} onClick={() => void saveMedia(post)}>
          <Download aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">{POST_TEXTS.saveMedia}</span>
        </Button>
      ) : null}
    </div>
  );
}
