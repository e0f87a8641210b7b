import { Download, Ellipsis, Trash2 } from 'lucide-react';
import { POST_TEXTS } from '../../../common/texts';
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

/** The owner's menu (spec part 1 §2): Delete Post, and Save Media in the detail view. */
export function PostOwnerMenu({ post, withSaveMedia, onDeleted }: { post: Post; withSaveMedia: boolean; onDeleted?: () => void }) {
  const deletePost = useDeletePost(post, onDeleted);
  const canSave = withSaveMedia && !!post.media?.downloadUrl;
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <button
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
        <DropdownMenuItem tone="danger" onSelect={() => void deletePost()}>
          <Trash2 aria-hidden="true" className="size-4" />
          {POST_TEXTS.deletePost}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
