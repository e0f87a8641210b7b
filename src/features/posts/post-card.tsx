import { Link } from '@tanstack/react-router';
import { Crown, Lock, Music, Pin } from 'lucide-react';
import { lazy, Suspense, useId, useState, type ComponentProps, type ReactNode } from 'react';
import { postName } from '../../../common/post-name';
import { POST_TEXTS } from '../../../common/texts';
import { Avatar } from '../../components/ui/avatar';
import { Badge } from '../../components/ui/badge';
import { VerifiedBadge } from '../../components/ui/verified-badge';
import { cn } from '../../lib/cn';
import type { Post } from '../../lib/post-cache';
import { useIsRoomJoined, useRoom } from '../../lib/realtime/rooms';
import { viewerKind } from './media-kind';
import { PostActions } from './post-actions';
import { PostTimeLink } from './post-time-link';
import { imageSources } from '../../../common/image-sources';
import { DocumentTile, PdfTile, PostMedia, PremiumOverlay, UnsupportedMedia, VideoMark } from './post-media';
/** what a post of several files adds (carousel, count) loads when one is shown: the landing's script budget */
const SeveralFiles = lazy(() => import('./post-carousel'));
import { PostOwnerMenu } from './post-owner-menu';
import { PostText } from './post-text';
import { formatRand } from '../../../common/format';

// the owner's unlock counts load only on their own pay-per-view post's page
const UnlockStats = lazy(() => import('./unlock-stats'));

/**
 * The three post layouts of spec part 1 §2:
 * - `posts`: the feed card (author, time, text cut at 100 characters, media, actions, comments
 *   behind the comments button);
 * - `original`: the detail view (full text, the media with controls, Save Media for entitled
 *   viewers, comments always open);
 * - `media`: a square grid tile linking to the post.
 * Comments come from the comments feature through `renderComments` (features do not import
 * each other; the route composes them). While shown, the card keeps this tab in the post's
 * live room.
 */
export type PostLayout = 'media' | 'original' | 'posts';

interface PostCardProps {
  post: Post;
  layout: PostLayout;
  renderComments?: (post: Post) => ReactNode;
  /** the Tip button (features/subscriptions, given by the route), shown to viewers who are not the creator */
  renderTip?: (post: Post) => ReactNode;
  /** the detail view goes to / after its post is deleted */
  onDeleted?: () => void;
}

export function PostCard({ post, layout, renderComments, renderTip, onDeleted }: PostCardProps) {
  useRoom('post', post.id);
  if (layout === 'media') return <PostTile post={post} />;
  return <PostArticle post={post} detail={layout === 'original'} renderComments={renderComments} renderTip={renderTip} onDeleted={onDeleted} />;
}

function PostArticle({
  post,
  detail,
  renderComments,
  renderTip,
  onDeleted,
}: {
  post: Post;
  detail: boolean;
  renderComments?: (post: Post) => ReactNode;
  renderTip?: (post: Post) => ReactNode;
  onDeleted?: () => void;
}) {
  const [commentsOpen, setCommentsOpen] = useState(detail);
  const titleId = useId();
  const commentsId = useId();
  const { creator } = post;
  const TitleTag = detail ? 'h1' : 'h2';

  return (
    <LiveArticle postId={post.id} aria-labelledby={titleId} className="overflow-hidden rounded-card border border-border bg-surface shadow-xl shadow-black/20">
      <PostHeader post={post} detail={detail} onDeleted={onDeleted} />

      <div className="flex flex-col gap-3 px-4 pt-3 md:px-5">
        {post.title ? (
          <TitleTag id={titleId} className={cn('font-semibold tracking-tight text-foreground', detail ? 'text-2xl' : 'text-lg')}>
            {detail ? (
              post.title
            ) : (
              <Link to="/post/$id" params={{ id: post.id }} className="hover:underline">
                {post.title}
              </Link>
            )}
          </TitleTag>
        ) : (
          <TitleTag id={titleId} className="sr-only">
            {postName(post)}
          </TitleTag>
        )}
        <PostText text={post.text} hashtags={post.hashtags} username={creator.username} full={detail} />
      </div>

      {post.media ? <PostMediaBlock post={post} detail={detail} /> : null}

      {detail && post.viewer.isOwner && post.unlock ? (
        <div className="px-4 pt-3 md:px-5">
          <Suspense fallback={null}>
            <UnlockStats postId={post.id} price={post.unlock.price} />
          </Suspense>
        </div>
      ) : null}

      <footer className="flex flex-col gap-1 py-2 pr-4 pl-2 md:pr-5 md:pl-3">
        <PostActions
          post={post}
          commentsOpen={commentsOpen}
          onToggleComments={detail ? undefined : () => setCommentsOpen((v) => !v)}
          commentsId={commentsId}
          showSaveMedia={detail}
          tip={renderTip && !post.viewer.isOwner ? renderTip(post) : null}
        />
      </footer>

      {commentsOpen && renderComments ? (
        <section id={commentsId} aria-label="Comments" className="border-t border-border px-4 py-4 md:px-5">
          {renderComments(post)}
        </section>
      ) : null}
    </LiveArticle>
  );
}

/** The card's top row: who posted it and when, its badges (pinned, bought or priced, Premium) and the owner's menu. */
function PostHeader({ post, detail, onDeleted }: { post: Post; detail: boolean; onDeleted?: () => void }) {
  const { creator } = post;
  const name = creator.displayName || creator.username;
  return (
    <header className="flex items-center gap-3 px-4 pt-4 md:px-5">
      <Link to="/$username" params={{ username: creator.username }} className="shrink-0 rounded-full" tabIndex={-1} aria-hidden="true">
        <Avatar src={creator.avatarUrl} name={name} size="md" ring={false} />
      </Link>
      <div className="flex min-w-0 flex-col">
        <span className="flex min-w-0 items-center gap-1.5">
          <Link to="/$username" params={{ username: creator.username }} className="truncate font-semibold text-foreground hover:underline">
            {name}
          </Link>
          {creator.isVerified ? <VerifiedBadge className="shrink-0" /> : null}
        </span>
        <span className="flex min-w-0 items-center gap-1.5 text-sm text-subtle">
          <span className="truncate">@{creator.username}</span>
          <span aria-hidden="true">·</span>
          <PostTimeLink postId={post.id} createdAt={post.createdAt} />
        </span>
      </div>
      <div className="ml-auto flex shrink-0 items-center gap-1">
        {post.pinnedAt ? (
          <Badge data-testid="pinned-badge">
            <Pin aria-hidden="true" className="size-3" />
            Pinned
          </Badge>
        ) : null}
        {post.unlock?.unlocked ? (
          // bought by this viewer (issue 47 item 8): no lock, no price
          <Badge data-testid="purchased-badge" variant="accent">
            Purchased
          </Badge>
        ) : post.unlock ? (
          <Badge data-testid="unlock-badge" aria-label={`Pay-per-view: ${formatRand(post.unlock.price)}`}>
            <Lock aria-hidden="true" className="size-3" />
            {formatRand(post.unlock.price)}
          </Badge>
        ) : null}
        {post.isPremium ? (
          <Badge variant="premium">
            <Crown aria-hidden="true" className="size-3" />
            Premium
          </Badge>
        ) : null}
        {post.viewer.isOwner ? <PostOwnerMenu post={post} withSaveMedia={detail} onDeleted={onDeleted} /> : null}
      </div>
    </header>
  );
}

/** The post's files: one shown (opening the post from the feed), or several in the carousel once it loads. */
function PostMediaBlock({ post, detail }: { post: Post; detail: boolean }) {
  return (
    <div className="relative px-4 pt-3 md:px-5">
      {post.files && post.files.length > 1 && post.viewer.canViewMedia ? (
        <Suspense fallback={<PostMedia post={post} placement={detail ? 'detail' : 'feed'} />}>
          <SeveralFiles post={post} placement={detail ? 'detail' : 'feed'} />
        </Suspense>
      ) : detail || !linksToPost(post) ? (
        <PostMedia post={post} placement={detail ? 'detail' : 'feed'} />
      ) : (
        <Link to="/post/$id" params={{ id: post.id }} aria-label={`Open ${postName(post)}`} className="block rounded-xl">
          <PostMedia post={post} placement="feed" />
        </Link>
      )}
      {post.files && post.files.length > 1 && !post.viewer.canViewMedia ? (
        <Suspense>
          <SeveralFiles post={post} placement="feed" mark />
        </Suspense>
      ) : null}
    </div>
  );
}

/** In the feed, a picture, a video or a PDF tile opens the post; players (audio), text, document cards and overlays keep their own controls. */
function linksToPost(post: Post): boolean {
  if (!post.media || !post.viewer.canViewMedia) return false;
  const kind = viewerKind(post.media.contentType);
  return kind === 'image' || kind === 'video' || kind === 'pdf';
}

/** A grid tile's picture: the thumb for its small box, the web size on wide screens of high density. */
function tileSources(media: NonNullable<Post['media']>) {
  const sources = imageSources({ ...media, url: media.thumbUrl ? media.url : null }, 'tile');
  return sources?.srcSet ? { srcSet: sources.srcSet, sizes: sources.sizes } : {};
}

/** The `media` layout: a square grid tile that opens the post. */
function PostTile({ post }: { post: Post }) {
  const media = post.media;
  const label = postName(post);
  let body: ReactNode;
  if (!media) {
    body = <p className="line-clamp-6 p-4 text-sm text-muted">{post.text}</p>;
  } else if (!post.viewer.canViewMedia) {
    body = (
      <>
        {media.previewUrl ? (
          <img src={media.previewUrl} alt="" loading="lazy" decoding="async" width={media.width ?? undefined} height={media.height ?? undefined} className="absolute inset-0 size-full scale-110 object-cover blur-sm" />
        ) : null}
        {post.unlock ? (
          <span className="absolute inset-0 flex flex-col items-center justify-center gap-2 bg-black/50 text-sm font-semibold text-white">
            <Lock aria-hidden="true" className="size-5" />
            {formatRand(post.unlock.price)}
          </span>
        ) : (
          <PremiumOverlay username={post.creator.username} compact />
        )}
      </>
    );
  } else {
    const kind = viewerKind(media.contentType);
    const still = kind === 'image' ? (media.thumbUrl ?? media.url) : kind === 'video' ? media.posterUrl : null;
    if (still) {
      body = (
        <>
          <img
            src={still}
            {...(kind === 'image' ? tileSources(media) : {})}
            alt={label}
            loading="lazy"
            decoding="async"
            width={media.width ?? undefined}
            height={media.height ?? undefined}
            className="absolute inset-0 size-full object-cover transition-transform duration-300 group-hover:scale-105"
          />
          {kind === 'video' ? <VideoMark durationSeconds={media.durationSeconds} /> : null}
        </>
      );
    } else if (kind === 'audio') {
      body = (
        <span className="flex size-full flex-col items-center justify-center gap-2 bg-[linear-gradient(135deg,rgb(139_92_246/0.25),rgb(236_72_153/0.15))] text-sm text-foreground">
          <Music aria-hidden="true" className="size-8" />
        </span>
      );
    } else if (kind === 'pdf') {
      body = <PdfTile className="size-full rounded-none border-0" />;
    } else if (kind === 'text' || kind === 'document') {
      body = <DocumentTile kind={kind} fileName={media.fileName} className="size-full rounded-none border-0" />;
    } else {
      body = <UnsupportedMedia className="size-full rounded-none border-0" />;
    }
  }
  // a pay-per-view tile opens the post, where it is unlocked
  const locked = !!media && !post.viewer.canViewMedia && !post.unlock;
  const tile = 'group relative block aspect-square overflow-hidden rounded-xl border border-border bg-surface-raised';
  // A locked tile is the premium overlay, whose link leads to the subscribe route; others open the post.
  const several =
    post.files && post.files.length > 1 ? (
      <Suspense>
        <SeveralFiles post={post} placement="feed" mark />
      </Suspense>
    ) : null;
  return locked ? (
    <div className={tile}>
      {body}
      {several}
    </div>
  ) : (
    <Link to="/post/$id" params={{ id: post.id }} aria-label={label} className={tile}>
      {body}
      {several}
      {post.isPremium ? (
        // open to this viewer (a subscriber, the owner): a badge, not a lock
        <span
          data-testid="premium-badge"
          className="absolute top-2 left-2 flex items-center gap-1 rounded-full bg-black/60 px-2 py-0.5 text-xs font-semibold text-amber-300"
        >
          <Crown aria-hidden="true" className="size-3" />
          {POST_TEXTS.premiumBadge}
        </span>
      ) : null}
    </Link>
  );
}

/**
 * A card's <article>, marked data-live="joined" once the server confirmed the post's room (live
 * updates reach the card from then on). It alone re-renders when the socket joins, in one task
 * for every card on the page: the card's contents are its children, made once by the card.
 */
function LiveArticle({ postId, children, ...props }: ComponentProps<'article'> & { postId: string }) {
  const live = useIsRoomJoined('post', postId);
  return (
    <article {...props} data-post-id={postId} data-live={live ? 'joined' : undefined}>
      {children}
    </article>
  );
}
