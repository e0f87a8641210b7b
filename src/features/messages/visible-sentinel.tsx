import { useEffect, useRef } from 'react';

/**
 * Calls `onVisible` when 10% of the sentinel is in view (spec part 2 §9: the chat list loads
 * more when a sentinel is 10% visible). Observed again after each page, so a short page that
 * leaves it in view asks again. `data-end` says there is no further page.
 */
export function VisibleSentinel({
  enabled,
  onVisible,
  itemCount,
  testId,
  end,
  root,
}: {
  enabled: boolean;
  onVisible: () => void;
  itemCount: number;
  testId: string;
  end: boolean;
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
      { threshold: 0.1, root: root ?? null },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [enabled, itemCount, root]);

  return <div ref={ref} aria-hidden="true" data-testid={testId} data-end={end} className="h-4 w-full shrink-0" />;
}
