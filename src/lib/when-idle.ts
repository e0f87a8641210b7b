/**
 * Runs `run` once the page has loaded and the browser is next idle (at the latest `timeoutMs`
 * after the load): for work a page's start does not need, so that it does not lengthen the
 * start-up's tasks (issue 50 item 1: total blocking time). Returns a cancel function.
 */
export function whenIdle(run: () => void, timeoutMs = 2_000): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const idle = () => {
    if (cancelled) return;
    if (typeof requestIdleCallback === 'function') {
      const handle = requestIdleCallback(run, { timeout: timeoutMs });
      cancelIdle = () => cancelIdleCallback(handle);
    } else {
      const handle = setTimeout(run, 1);
      cancelIdle = () => clearTimeout(handle);
    }
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
    cancelIdle();
  };
}
