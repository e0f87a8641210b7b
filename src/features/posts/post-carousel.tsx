import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import { MULTI_FILE_TEXTS as T } from '../../../common/multi-file-texts';
import type { Post } from '../../lib/post-cache';
import { PostMedia, type MediaPlacement } from './post-media';

/** How far a finger must travel sideways to turn a file (px). */
const SWIPE_PX = 40;

/**
 * The files of a post of several, one at a time (issue 29): swipe on a phone, the arrows or the
 * keyboard's Left / Right (while the carousel has focus) on a computer, with '2 / 7' said and
 * shown. Each file is shown by the post's own viewer (PostMedia), so every kind plays as it
 * does alone.
 */
function PostCarousel({ post, files, placement }: { post: Post; files: NonNullable<Post['files']>; placement: MediaPlacement }) {
  const [index, setIndex] = useState(0);
  const touchX = useRef<number | null>(null);
  const count = files.length;
  const go = (by: number) => setIndex((current) => Math.min(count - 1, Math.max(0, current + by)));

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'ArrowRight') go(1);
    else if (event.key === 'ArrowLeft') go(-1);
    else return;
    event.preventDefault();
  };
  const onTouchStart = (event: TouchEvent<HTMLDivElement>) => {
    touchX.current = event.touches[0]?.clientX ?? null;
  };
  const onTouchEnd = (event: TouchEvent<HTMLDivElement>) => {
    const start = touchX.current;
    const end = event.changedTouches[0]?.clientX;
    touchX.current = null;
    if (start === null || end === undefined || Math.abs(end - start) < SWIPE_PX) return;
    go(end < start ? 1 : -1);
  };

  const arrow = 'absolute top-1/2 z-10 flex size-10 -translate-y-1/2 items-center justify-center rounded-full bg-black/70 text-white ring-1 ring-white/20 hover:bg-black/85 focus-visible:ring-2 focus-visible:ring-accent disabled:opacity-0';
  return (
    <div
      role="region"
      aria-roledescription="carousel"
      aria-label={T.carousel}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onTouchStart={onTouchStart}
      onTouchEnd={onTouchEnd}
      className="relative rounded-xl outline-none focus-visible:ring-2 focus-visible:ring-accent"
      data-testid="post-carousel"
    >
      <div aria-roledescription="slide" aria-label={T.position(index + 1, count)}>
        <PostMedia key={index} post={{ ...post, media: files[index]! }} placement={placement} />
      </div>
      <button type="button" className={`${arrow} left-2`} aria-label={T.previous} disabled={index === 0} onClick={() => go(-1)}>
        <ChevronLeft aria-hidden="true" className="size-5" />
      </button>
      <button type="button" className={`${arrow} right-2`} aria-label={T.next} disabled={index === count - 1} onClick={() => go(1)}>
        <ChevronRight aria-hidden="true" className="size-5" />
      </button>
      <span aria-live="polite" data-testid="carousel-position" className="absolute top-2 right-2 z-10 rounded-full bg-black/70 px-2.5 py-0.5 text-xs font-semibold text-white tabular-nums">
        {T.position(index + 1, count)}
      </span>
    </div>
  );
}
/**
 * A grid tile's or a locked card's mark that the post holds several files: words, no icon (an
 * icon's module is half a kilobyte of the landing page's script budget).
 */
export function FileCountMark({ count }: { count: number }) {
  return (
    <span data-testid="file-count" className="absolute top-2 right-2 z-10 rounded-full bg-black/70 px-2 py-0.5 text-xs font-semibold text-white">
      {count} files
    </span>
  );
}

/** What a post of several files adds to a card or a tile, loaded with the carousel: the carousel, or the file count. */
export default function SeveralFiles({ post, placement, mark }: { post: Post; placement: MediaPlacement; mark?: boolean }) {
  const files = post.files ?? [];
  return mark ? <FileCountMark count={files.length} /> : <PostCarousel post={post} files={files} placement={placement} />;
}
