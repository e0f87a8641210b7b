import { lazy, Suspense } from 'react';
import { CommentsLoading } from './comments-loading';

/**
 * The comments section, loaded when a post's comments are first opened: on the landing page's
 * feed it would otherwise bring the comment box's shared schema (zod) into the first load
 * (issue 14 item 12, tests/e2e/bundle-budget.spec.ts), and on a profile's feed building those
 * schemas was a long task of the page's start (issue 30: total blocking time). Pages that open
 * comments at once (a post's own page) import comments-section directly.
 */
const Section = lazy(() => import('./comments-section').then((m) => ({ default: m.CommentsSection })));

export function CommentsSection({ postId }: { postId: string }) {
  return (
    <Suspense fallback={<CommentsLoading />}>
      <Section postId={postId} />
    </Suspense>
  );
}
