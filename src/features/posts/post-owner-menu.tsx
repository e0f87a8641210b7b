import { lazy, Suspense } from 'react';
import type { PostOwnerMenuProps } from './post-owner-menu-dropdown';

// Only owners see the menu: its code (Radix menu and dialog) loads with the first post they own,
// never for a visitor's landing page.
const PostOwnerMenuDropdown = lazy(() => import('./post-owner-menu-dropdown'));

/** The owner's menu (spec part 1 §2): Delete Post (confirmed first), and Save Media in the detail view. */
export function PostOwnerMenu(props: PostOwnerMenuProps) {
  return (
    <Suspense fallback={<span aria-hidden="true" className="size-9 shrink-0" />}>
      <PostOwnerMenuDropdown {...props} />
    </Suspense>
  );
}
