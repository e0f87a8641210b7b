import { Layers } from 'lucide-react';

/** A grid tile's or a locked card's mark that the post holds several files. */
export function FileCountMark({ count }: { count: number }) {
  return (
    <span
      data-testid="file-count"
      aria-label={`${count} files`}
      className="absolute top-2 right-2 z-10 flex items-center gap-1 rounded-full bg-black/70 px-2 py-0.5 text-xs font-semibold text-white"
    >
      <Layers aria-hidden="true" className="size-3" />
      {count}
    </span>
  );
}
