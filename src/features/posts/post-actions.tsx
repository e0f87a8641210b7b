import { Bookmark, Download, Heart, MessageCircle, Share2 } from 'lucide-react';
import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { COMMENT_TEXTS, LIKE_TEXTS, POST_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import type { Post } from '../../lib/post-cache';
import { saveMedia } from './save-media';
import { sharePost } from './share-post';
import { useBookmarkPost } from './use-bookmark-post';
import { useLikePost } from './use-like-post';

/** The spec's comment count tooltip: 'No comments yet', '1 comment', 'N comments'. */
export function commentsTooltip(count: number): string {
  if (count <= 0) return COMMENT_TEXTS.tooltipNone;
  if (count === 1) return COMMENT_TEXTS.tooltipOne;
  return COMMENT_TEXTS.tooltipMany(count);
}

function ActionButton({
  icon,
  count,
  className,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { icon: ReactNode; count?: number }) {
  return (
    <button
      type="button"
      className={cn(
        'inline-flex h-9 items-center gap-1.5 rounded-full px-3 text-sm font-medium text-muted tabular-nums transition-colors',
        'hover:bg-surface-hover hover:text-foreground disabled:cursor-wait',
        'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent',
        className,
      )}
      {...props}
    >
      {icon}
      {count === undefined ? null : <span data-count="">{count}</span>}
    </button>
  );
}

/**
 * Like, comments, bookmark and share (and, in the detail view, Save Media for viewers entitled to
 * the file). The buttons are named by aria-label; their visible count is their text.
 */
export function PostActions({
  post,
  commentsOpen,
  onToggleComments,
  commentsId,
  showSaveMedia = false,
  tip = null,
}: {
  post: Post;
  commentsOpen?: boolean;
  /** absent in the detail view, where comments are always open */
  onToggleComments?: () => void;
  commentsId?: string;
  showSaveMedia?: boolean;
  /** the Tip button, when the route gives one (not for the post's creator) */
  tip?: ReactNode;
}) {
  const like = useLikePost(post);
  const bookmark = useBookmarkPost(post);
  const { likes, comments, bookmarks } = post.counts;

  return (
    <div className="flex flex-wrap items-center gap-1">
      <ActionButton
        aria-label="Like"
        aria-pressed={post.viewer.liked}
        title={like.signedIn ? undefined : LIKE_TEXTS.signInRequired}
        disabled={like.pending}
        onClick={() => void like.toggle()}
        count={likes}
        className={post.viewer.liked ? 'text-pink hover:text-pink' : undefined}
        icon={<Heart aria-hidden="true" className={cn('size-[18px]', post.viewer.liked && 'fill-pink')} />}
      />
      <ActionButton
        aria-label="Comments"
        title={commentsTooltip(comments)}
        aria-expanded={onToggleComments ? !!commentsOpen : undefined}
        aria-controls={onToggleComments && commentsOpen ? commentsId : undefined}
        onClick={onToggleComments}
        count={comments}
        className={commentsOpen && onToggleComments ? 'text-foreground' : undefined}
        icon={<MessageCircle aria-hidden="true" className="size-[18px]" />}
      />
      <ActionButton
        aria-label="Bookmark"
        aria-pressed={post.viewer.bookmarked}
        disabled={bookmark.pending}
        onClick={() => void bookmark.toggle()}
        count={bookmarks}
        className={post.viewer.bookmarked ? 'text-violet-300 hover:text-violet-200' : undefined}
        icon={<Bookmark aria-hidden="true" className={cn('size-[18px]', post.viewer.bookmarked && 'fill-violet-300')} />}
      />
      <ActionButton
        aria-label="Share"
        title="Share"
        onClick={() => void sharePost(post.id)}
        icon={<Share2 aria-hidden="true" className="size-[18px]" />}
      />
      {tip}
      {showSaveMedia && post.media?.downloadUrl ? (
        <Button variant="secondary" size="sm" className="ml-auto max-sm:w-8 max-sm:px-0" title={POST_TEXTS.saveMedia} onClick={() => void saveMedia(post)}>
          <Download aria-hidden="true" className="size-4" />
          <span className="sr-only sm:not-sr-only">{POST_TEXTS.saveMedia}</span>
        </Button>
      ) : null}
    </div>
  );
}
