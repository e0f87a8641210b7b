import { FilePen, Send } from 'lucide-react';
import type { ReactNode } from 'react';
import { postName } from '../../../common/post-name';
import { FEED_TEXTS } from '../../../common/texts';
import { PagedPosts } from '../../components/paged-posts';
import { Skeleton } from '../../components/ui/skeleton';
import { Button } from '../../components/ui/button';
import { formatLongDateTime, formatRelativeTime, isoString } from '../../lib/format';
import type { Post } from '../../lib/post-cache';
import { trpc } from '../../lib/trpc';
import { DRAFTS_INPUT, profileListOptions } from './profile-queries';
import { usePublishDraft } from './use-publish-draft';

/**
 * The owner's Drafts tab (spec part 1 §2, §4, §9): their drafts, 10 per page, newest first, each
 * with Publish; 'No draft content available' when there are none.
 */
export function DraftsTab({
  username,
  onPublished,
  renderTile,
}: {
  username: string;
  onPublished: () => void;
  renderTile: (post: Post) => ReactNode;
}) {
  const drafts = trpc.profiles.drafts.useInfiniteQuery(DRAFTS_INPUT, { ...profileListOptions, refetchOnMount: 'always' });
  const { publish, pendingId } = usePublishDraft(username, onPublished);

  return (
    <PagedPosts
      query={drafts}
      layout="list"
      label="Drafts"
      emptyText={FEED_TEXTS.noDrafts}
      emptyIcon={FilePen}
      skeleton={<DraftSkeleton />}
      skeletonCount={2}
      sentinelTestId="drafts-sentinel"
      renderItem={(post) => (
        <DraftRow post={post} tile={renderTile(post)} publishing={pendingId === post.id} disabled={pendingId !== null} onPublish={() => void publish(post.id)} />
      )}
    />
  );
}

function DraftRow({
  post,
  tile,
  publishing,
  disabled,
  onPublish,
}: {
  post: Post;
  tile: ReactNode;
  publishing: boolean;
  disabled: boolean;
  onPublish: () => void;
}) {
  // an untitled draft is named as every untitled post is (common/post-name.ts)
  const title = postName(post);
  return (
    <article
      aria-label={title}
      data-post-id={post.id}
      className="flex gap-4 rounded-card border border-border bg-surface p-3 shadow-xl shadow-black/20 md:p-4"
    >
      <div className="w-24 shrink-0 md:w-28">{tile}</div>
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <div className="flex items-center gap-2">
          <span className="rounded-full border border-border bg-surface-raised px-2 py-0.5 text-[11px] font-semibold tracking-wide text-muted uppercase">
            Draft
          </span>
          <time dateTime={isoString(post.createdAt)} title={formatLongDateTime(post.createdAt)} className="text-xs text-subtle">
            Saved {formatRelativeTime(post.createdAt)}
          </time>
        </div>
        <h3 className="truncate font-semibold text-foreground">{title}</h3>
        {post.text ? <p className="line-clamp-2 text-sm break-words text-muted">{post.text}</p> : null}
        <div className="mt-auto flex justify-end pt-1">
          <Button size="sm" onClick={onPublish} loading={publishing} disabled={disabled && !publishing} aria-label={`Publish ${title}`}>
            {publishing ? null : <Send aria-hidden="true" className="size-4" />}
            Publish
          </Button>
        </div>
      </div>
    </article>
  );
}

/** A row of the owner's lists (Drafts, Scheduled) while it loads. */
export function DraftSkeleton() {
  return (
    <div data-testid="draft-skeleton" className="flex gap-4 rounded-card border border-border bg-surface p-3 md:p-4">
      <Skeleton className="aspect-square w-24 rounded-xl md:w-28" />
      <div className="flex flex-1 flex-col gap-2 pt-1">
        <Skeleton className="h-3 w-24" />
        <Skeleton className="h-4 w-1/2" />
        <Skeleton className="h-3 w-5/6" />
      </div>
    </div>
  );
}
