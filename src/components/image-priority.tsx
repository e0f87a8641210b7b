import { createContext, useContext, type ReactNode } from 'react';

/**
 * Whether the pictures inside are the page's first (above the fold, likely its largest
 * contentful paint): loaded at once with `fetchpriority="high"` instead of lazily. Lists mark
 * their first item; a post page's own picture is always first.
 */
const FirstImage = createContext(false);

export function FirstImageProvider({ first, children }: { first: boolean; children: ReactNode }) {
  return first ? <FirstImage.Provider value>{children}</FirstImage.Provider> : children;
}

/** The `<img>` loading attributes for a picture that is (or is not) the page's first. */
export function useImageLoading(first = false): { loading: 'eager' | 'lazy'; fetchPriority: 'high' | 'auto' } {
  const inFirst = useContext(FirstImage);
  return inFirst || first ? { loading: 'eager', fetchPriority: 'high' } : { loading: 'lazy', fetchPriority: 'auto' };
}
