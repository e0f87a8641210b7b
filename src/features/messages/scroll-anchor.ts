/**
 * The thread's own scroll anchoring (the browser's `overflow-anchor` is off there, so the list
 * decides when to follow the bottom): the message at the top of the view and its distance from
 * the scroller's top edge, put back after anything above it changed size (an older page, a
 * removed sentinel or day label, an image or video that got its size).
 */
export interface ScrollAnchor {
  id: string;
  offset: number;
}

const SELECTOR = '[data-message-id]';

/** The first message whose bottom is below the scroller's top edge (messages are in page order: a binary search). */
export function topMessage(scroller: HTMLElement): ScrollAnchor | null {
  const nodes = scroller.querySelectorAll<HTMLElement>(SELECTOR);
  const edge = scroller.getBoundingClientRect().top;
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (nodes[mid]!.getBoundingClientRect().bottom > edge) hi = mid;
    else lo = mid + 1;
  }
  const node = nodes[lo];
  return node?.dataset.messageId ? { id: node.dataset.messageId, offset: node.getBoundingClientRect().top - edge } : null;
}

/** Scrolls so the anchor's message is as far from the top edge as it was (nothing when it is gone). */
export function restoreAnchor(scroller: HTMLElement, anchor: ScrollAnchor) {
  const node = scroller.querySelector(`[data-message-id="${CSS.escape(anchor.id)}"]`);
  if (!node) return;
  const shift = node.getBoundingClientRect().top - scroller.getBoundingClientRect().top - anchor.offset;
  if (shift !== 0) scroller.scrollTop += shift;
}
