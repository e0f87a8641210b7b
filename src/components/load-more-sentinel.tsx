import { useEffect, useRef } from 'react';
import { LIMITS } from '../../common/limits';

/**
 * Infinite scroll: calls `onVisible` when the end of a list comes within 200 px of the viewport
 * (spec part 1 §9 'Lazy-load margin'). The observer is made again after each page, so a short
 * page that leaves the sentinel in view asks again. `data-end` says the last page is shown, so
 * a reader (or a test) can tell "no more pages" from "the next page has not come yet".
 */
export function LoadMoreSentinel({
  enabled,
  onVisible,
  itemCount,
  testId = 'feed-sentinel',
  end,
}: {
  enabled: boolean;
  onVisible: () => void;
  itemCount: number;
  testId?: string;
  /** the list has no further page */
  end?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const callback = useRef(onVisible);
  callback.current = onVisible;

  useEffect(() => {
    const node = ref.current;
    if (!enabled || !node) return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) callback.current();
      },
      { rootMargin: `${LIMITS.lazyLoadMarginPx}px` },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, itemCount]);

  return <div ref={ref} aria-hidden="true" data-testid={testId} data-end={end} className="h-px" />;
}
