import { FileText, Film, Music } from 'lucide-react';
import { useId } from 'react';
import { POST_TEXTS } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { Spinner } from '../../components/ui/spinner';
import type { Post } from '../../lib/post-cache';
import { optimisticIdOf, usePendingPosts, useProcessingProgress } from './pending-posts';

/**
 * The spec's optimistic post in the feed (part 1 §4): the creator's post as it will look, marked
 * 'Publishing' with 'Uploading N%' while the bytes travel, then 'Processing...' (with the worker's
 * progress when it reports any), until the real post replaces it (issue 14 item 8). Not interactive: it has no id the server knows yet.
 */
export function OptimisticPostCard({ post }: { post: Post }) {
  const optimisticId = optimisticIdOf(post);
  const pending = usePendingPosts().find((p) => p.optimisticId === optimisticId) ?? null;
  const processed = useProcessingProgress(pending?.postId);
  // bytes first ('Uploading N%'), then the worker ('Processing...' and its progress, when it reports any)
  const uploading = pending !== null && pending.uploadPercent !== null;
  const percent = uploading ? pending.uploadPercent : processed;
  const stage = uploading ? POST_TEXTS.uploadingPercent(pending.uploadPercent ?? 0) : POST_TEXTS.publishing.description;
  const titleId = useId();
  const { creator } = post;
  const name = creator.displayName || creator.username;
  const KindIcon = post.mediaKind === 'video' ? Film : post.mediaKind === 'audio' ? Music : FileText;

  return (
    <article
      aria-labelledby={titleId}
      aria-busy="true"
      data-optimistic-id={optimisticId ?? undefined}
      className="overflow-hidden rounded-card border border-accent/40 bg-surface shadow-xl shadow-black/20"
    >
      <header className="flex items-center gap-3 px-4 pt-4 md:px-5">
        <Avatar src={creator.avatarUrl} name={name} size="md" ring={false} />
        <div className="flex min-w-0 flex-col">
          <span className="truncate font-semibold text-foreground">{name}</span>
          <span className="truncate text-sm text-subtle">@{creator.username}</span>
        </div>
      </header>
      <div className="flex flex-col gap-3 px-4 pt-3 pb-4 md:px-5">
        <div className="flex items-center gap-2.5 rounded-xl border border-accent/30 bg-accent-soft px-3 py-2.5" role="status">
          <Spinner className="size-4 text-violet-200" />
          <span id={titleId} className="font-semibold text-foreground">
            {POST_TEXTS.publishing.title}
          </span>
          <span className="text-sm text-muted tabular-nums" data-testid="optimistic-stage">
            {stage}
            {!uploading && percent !== null ? <span> {percent}%</span> : null}
          </span>
        </div>
        {percent !== null ? (
          <div
            role="progressbar"
            aria-label={uploading ? 'Upload' : 'Processing'}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-1.5 overflow-hidden rounded-full bg-surface-raised"
          >
            <div className="h-full rounded-full bg-accent transition-[width] duration-300" style={{ width: `${percent}%` }} />
          </div>
        ) : null}
        {post.text ? <p className="line-clamp-3 text-sm break-words whitespace-pre-line text-foreground/90">{post.text}</p> : null}
        {pending?.previewUrl ? (
          <div className="overflow-hidden rounded-xl bg-black/40">
            <img src={pending.previewUrl} alt="" className="max-h-96 w-full object-contain opacity-60" />
          </div>
        ) : post.mediaKind && post.mediaKind !== 'image' ? (
          <div className="flex items-center gap-3 rounded-xl border border-border bg-canvas/40 px-4 py-6 text-muted">
            <KindIcon aria-hidden="true" className="size-6" />
            <span className="truncate text-sm">{pending?.filename ?? 'Your upload'}</span>
          </div>
        ) : null}
      </div>
    </article>
  );
}
