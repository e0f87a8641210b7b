import { Link } from '@tanstack/react-router';
import { Download, Ellipsis, Fingerprint, Pencil, Pin, PinOff, Trash2 } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import { TRACE_TEXTS } from '../../../common/forensics';
import { POST_EDIT_TEXTS } from '../../../common/post-edit-texts';
import { postName } from '../../../common/post-name';
import { POST_UNLOCK_TEXTS } from '../../../common/post-unlock-texts';
import { POST_TEXTS } from '../../../common/texts';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '../../components/ui/dropdown-menu';
import type { Post } from '../../lib/post-cache';
import { saveMedia } from './save-media';
import { useDeletePost } from './use-delete-post';
import { usePinPost } from './use-pin-post';

// The form (react-hook-form, zod schemas) loads when the owner first asks to edit.
const EditPostDialog = lazy(() => import('./edit-post-dialog'));

export interface PostOwnerMenuProps {
  post: Post;
  withSaveMedia: boolean;
  onDeleted?: () => void;
}

/**
 * The owner's menu (spec part 1 §2): Edit post (issue 29 item 4), Trace a leak (issue 49 item 5),
 * Pin to profile / Unpin on a published post (issue 29 item 5), Delete Post, and Save Media in the
 * detail view. Delete Post
 * asks first; cancelling (or Escape) leaves the post alone and puts focus back on the menu button.
 */
export default function PostOwnerMenuDropdown({ post, withSaveMedia, onDeleted }: PostOwnerMenuProps) {
  const deletePost = useDeletePost(post, onDeleted);
  const togglePin = usePinPost(post);
  // only a published post can lead the profile (the server says so too)
  const canPin = post.status === 'published';
  const [confirming, setConfirming] = useState(false);
  const [editing, setEditing] = useState(false);
  // mounted from the first Edit on, so closing it can hand focus back to the menu button
  const [editOpened, setEditOpened] = useState(false);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const canSave = withSaveMedia && !!post.media?.downloadUrl;
  return (
    <>
      <DropdownMenu modal={false}>
        <DropdownMenuTrigger asChild>
          <button
            ref={triggerRef}
            type="button"
            aria-label="Post options"
            className="flex size-9 items-center justify-center rounded-full text-muted transition-colors hover:bg-surface-hover hover:text-foreground data-[state=open]:bg-surface-hover data-[state=open]:text-foreground"
          >
            <Ellipsis aria-hidden="true" className="size-5" />
          </button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          {canSave ? (
            <>
              <DropdownMenuItem onSelect={() => void saveMedia(post)}>
                <Download aria-hidden="true" className="size-4 text-muted" />
                {POST_TEXTS.saveMedia}
              </DropdownMenuItem>
              <DropdownMenuSeparator />
            </>
          ) : null}
          <DropdownMenuItem
            onSelect={() => {
              setEditOpened(true);
              setEditing(true);
            }}
          >
            <Pencil aria-hidden="true" className="size-4 text-muted" />
            {POST_EDIT_TEXTS.menuItem}
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          {/* a copy of the post found elsewhere: whose it was (issue 49 item 5) */}
          <DropdownMenuItem asChild>
            <Link to="/post/$id/trace" params={{ id: post.id }}>
              <Fingerprint aria-hidden="true" className="size-4 text-muted" />
              {TRACE_TEXTS.title}
            </Link>
          </DropdownMenuItem>
          <DropdownMenuSeparator />
          {canPin ? (
            <>
              <DropdownMenuItem onSelect={() => void togglePin()}>
                {post.pinnedAt ? <PinOff aria-hidden="true" className="size-4 text-muted" /> : <Pin aria-hidden="true" className="size-4 text-muted" />}
                {post.pinnedAt ? POST_UNLOCK_TEXTS.unpin : POST_UNLOCK_TEXTS.pin}
              </DropdownMenuItem>
              <DropdownMenuSeparator />
            </>
          ) : null}
          <DropdownMenuItem tone="danger" onSelect={() => setConfirming(true)}>
            <Trash2 aria-hidden="true" className="size-4" />
            {POST_TEXTS.deletePost}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        returnFocusRef={triggerRef}
        title={POST_TEXTS.deleteConfirm.title}
        // named as everywhere else: its title, else 'Post by <creator>' (common/post-name.ts)
        description={POST_TEXTS.deleteConfirm.description(postName(post))}
        confirmLabel={POST_TEXTS.deleteConfirm.confirm}
        onConfirm={deletePost}
      />
      {editOpened ? (
        <Suspense fallback={null}>
          <EditPostDialog post={post} open={editing} onOpenChange={setEditing} returnFocusRef={triggerRef} />
        </Suspense>
      ) : null}
    </>
  );
}
