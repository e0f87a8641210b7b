import { useEffect, useRef } from 'react';
import { LIMITS } from '../../common/limits';

/**
 * Infinite scroll: calls `onVisible` when the end of a list comes within 200 px of the viewport
 * (spec part 1 §9 'Lazy-load margin'), or, with `visibleRatio`, when that share of the sentinel
 * is in view (part 2 §9: the chat list loads more at 10% sentinel visibility). The observer is
 * made again after each page, so a short page that leaves the sentinel in view asks again.
 * `data-end` says the last page is shown, so a reader (or a test) can tell "no more pages" from
 * "the next page has not come yet".
 */
export function LoadMoreSentinel({
  enabled,
  onVisible,
  itemCount,
  testId = 'feed-sentinel',
  end,
  visibleRatio,
  root,
}: {
  enabled: boolean;
  onVisible: () => void;
  itemCount: number;
  testId?: string;
  /** the list has no further page */
  end?: boolean;
  /** fire when this share of the sentinel is visible, instead of at the lazy-load margin */
  visibleRatio?: number;
  /** the scrolling element, when it is not the page */
  root?: Element | null;
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
      visibleRatio === undefined ? { rootMargin: `${LIMITS.lazyLoadMarginPx}px`, root: root ?? null } : { threshold: visibleRatio, root: root ?? null },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, itemCount, visibleRatio, root]);

  // a share of a 1 px line is no measure: the ratio sentinel is given some height
  return <div ref={ref} aria-hidden="true" data-testid={testId} data-end={end} className={visibleRatio === undefined ? 'h-px' : 'h-4 w-full shrink-0'} />;
}
