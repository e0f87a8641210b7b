import { Suspense, type ReactNode } from 'react';

/**
 * A part of a server-rendered page that hydrates on its own, after the page around it (issue 50
 * item 1: total blocking time). React leaves a server-rendered Suspense boundary's markup as it
 * is while it hydrates the rest, commits that, and hydrates the boundary later at its lowest
 * priority, so a list of post cards is not one hydration commit with the page's shell. A click
 * or key press inside a boundary not yet hydrated makes React hydrate it at once and then
 * handle the event. Nothing inside suspends in the browser once hydrated (the cards' lazy parts
 * have their own boundaries), so the empty fallback is never shown.
 */
export function HydrateApart({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
