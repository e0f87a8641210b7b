import { Link } from '@tanstack/react-router';
import { FileQuestionMark, FileText, LoaderCircle, Lock, Music, Play } from 'lucide-react';
import { lazy, Suspense, useContext, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { formatDuration } from '../../../common/duration';
import { imageSources } from '../../../common/image-sources';
import { postName } from '../../../common/post-name';
import { POST_TEXTS } from '../../../common/texts';
import { useImageLoading } from '../../components/image-priority';
import { PostUnlockSlot } from './post-unlock-slot';
import { buttonClasses } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import type { Post } from '../../lib/post-cache';
import { DocumentCard } from './document-card';
import { viewerKind } from './media-kind';
import { onImageError, onPlayRefused, onPlayerError } from '../../lib/media-errors';
import { TextFileMedia } from './text-file-media';

/**
 * The media viewer of a post (spec part 1 §2), per kind:
 * - image: lazy-loaded;
 * - video: in the feed muted, looping, playing while hovered (poster shown until then); in the
 *   detail view with controls;
 * - audio: an audio player;
 * - PDF: embedded in the detail view, a 'PDF Document' tile elsewhere;
 * - text: the text itself (text-file-media.tsx); Word: a document card (document-card.tsx);
 * - anything else: 'Unsupported file type'.
 * A premium post the viewer may not see shows its blurred preview under the 'Premium Content /
 * Subscribe to view' overlay, which leads to the creator's subscribe route.
 */
export type MediaPlacement = 'feed' | 'detail';

type Media = NonNullable<Post['media']>;

function aspectOf(media: Media, fallback = '16 / 9'): string {
  return media.width && media.height ? `${media.width} / ${media.height}` : fallback;
}

const altOf = postName;

const StreamingVideo = lazy(() => import('../../components/streaming-video').then((m) => ({ default: m.StreamingVideo })));


export function PostMedia({ post, placement }: { post: Post; placement: MediaPlacement }) {
  const media = post.media;
  if (!media) return null;
  if (!post.viewer.canViewMedia) return <PremiumLocked post={post} media={media} first={placement === 'detail'} />;
  // its owner may open a post the worker has not finished: its file has no viewable form yet
  if (post.status === 'processing') return <ProcessingMedia />;

  const kind = viewerKind(media.contentType);
  const url = media.url;
  if (!url || kind === 'unsupported') return <UnsupportedMedia />;

  switch (kind) {
    case 'image':
      return <PostImage post={post} media={media} placement={placement} />;
    case 'video':
      return placement === 'detail' ? (
        <MediaFrame style={{ aspectRatio: aspectOf(media) }} placement={placement}>
          {/* the player (and the stream's script after it) loads with the first video shown: never in the landing page's script */}
          <Suspense
            fallback={<video poster={media.posterUrl ?? undefined} controls playsInline preload="none" aria-label={altOf(post)} className="absolute inset-0 size-full bg-black object-contain" />}
          >
            <StreamingVideo
              streamUrl={media.streamUrl}
              mp4Url={url}
              poster={media.posterUrl ?? undefined}
              controls
              playsInline
              preload="metadata"
              aria-label={altOf(post)}
              className="absolute inset-0 size-full bg-black object-contain"
            />
          </Suspense>
        </MediaFrame>
      ) : (
        <HoverVideo url={url} poster={media.posterUrl} label={altOf(post)} aspect={aspectOf(media)} durationSeconds={media.durationSeconds} />
      );
    case 'audio':
      return (
        <div className="flex items-center gap-4 rounded-xl border border-border bg-[linear-gradient(135deg,rgb(139_92_246/0.18),rgb(236_72_153/0.12))] p-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-full bg-gradient-accent text-white shadow-lg shadow-accent/30">
            <Music aria-hidden="true" className="size-5" />
          </span>
          <audio src={url} controls preload="metadata" aria-label={altOf(post)} onError={onPlayerError('audio')} className="h-10 min-w-0 flex-1" />
        </div>
      );
    case 'text':
      return <TextFileMedia url={url} placement={placement} label={altOf(post)} />;
    case 'document':
      return <DocumentCard post={post} media={media} withSaveMedia={placement === 'feed'} />;
    case 'pdf':
      return placement === 'detail' ? (
        <iframe
          src={url}
          title={postName(post)}
          className="h-[70vh] min-h-96 w-full rounded-xl border border-border bg-white"
        />
      ) : (
        <PdfTile />
      );
  }
}

/** A post's picture, sized to its box (srcset over the worker's sizes), eager and high priority when it is the page's first. */
function PostImage({ post, media, placement }: { post: Post; media: Media; placement: MediaPlacement }) {
  const sources = imageSources(media, placement);
  const loading = useImageLoading(placement === 'detail');
  return (
    <MediaFrame style={{ aspectRatio: aspectOf(media, '4 / 3') }} placement={placement}>
      <img
        src={sources?.src ?? media.url ?? undefined}
        srcSet={sources?.srcSet}
        sizes={sources?.sizes}
        alt={altOf(post)}
        {...loading}
        decoding="async"
        width={media.width ?? undefined}
        height={media.height ?? undefined}
        onError={onImageError}
        className="absolute inset-0 size-full object-contain"
      />
    </MediaFrame>
  );
}

function MediaFrame({ children, style, placement }: { children: ReactNode; style: CSSProperties; placement: MediaPlacement }) {
  return (
    <div
      style={style}
      className={cn(
        'relative w-full overflow-hidden rounded-xl bg-black/40',
        placement === 'feed' ? 'max-h-[34rem]' : 'max-h-[75vh]',
      )}
    >
      {children}
    </div>
  );
}

/** Feed video: muted and looping, plays while the pointer (or focus) is on it; the poster shows until then. */
function HoverVideo({
  url,
  poster,
  label,
  aspect,
  durationSeconds,
}: {
  url: string;
  poster: string | null;
  label: string;
  aspect: string;
  durationSeconds: number | null;
}) {
  const ref = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState(false);
  const play = () => {
    ref.current?.play().catch(onPlayRefused);
  };
  const pause = () => ref.current?.pause();
  return (
    <div
      style={{ aspectRatio: aspect }}
      className="relative max-h-[34rem] w-full overflow-hidden rounded-xl bg-black"
      onMouseEnter={play}
      onMouseLeave={pause}
      onFocus={play}
      onBlur={pause}
    >
      <video
        ref={ref}
        src={url}
        poster={poster ?? undefined}
        muted
        loop
        playsInline
        preload={poster ? 'none' : 'metadata'}
        aria-label={label}
        onError={onPlayerError('video')}
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        className="absolute inset-0 size-full object-contain"
      />
      {playing ? null : (
        <span data-testid="video-mark" className="pointer-events-none absolute inset-0 flex items-center justify-center">
          <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-black/55 text-white ring-1 ring-white/20 backdrop-blur-sm">
            <Play className="ml-0.5 size-6 fill-white" />
          </span>
          {durationSeconds !== null ? <DurationBadge seconds={durationSeconds} /> : null}
        </span>
      )}
    </div>
  );
}

function DurationBadge({ seconds }: { seconds: number }) {
  const duration = formatDuration(seconds);
  return (
    <span
      data-testid="video-duration"
      aria-label={POST_TEXTS.videoDuration(duration)}
      className="absolute right-2 bottom-2 rounded-md bg-black/70 px-1.5 py-0.5 text-xs font-semibold text-white tabular-nums"
    >
      {duration}
    </span>
  );
}

/** A video's grid tile: the play mark and, when known, its length. */
export function VideoMark({ durationSeconds }: { durationSeconds: number | null }) {
  return (
    <span data-testid="video-mark" className="pointer-events-none absolute inset-0">
      <span aria-hidden="true" className="absolute top-2 right-2 flex size-7 items-center justify-center rounded-full bg-black/60 text-white">
        <Play className="ml-0.5 size-3.5 fill-white" />
      </span>
      {durationSeconds !== null ? <DurationBadge seconds={durationSeconds} /> : null}
    </span>
  );
}

export function PdfTile({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        'flex flex-col items-center justify-center gap-3 rounded-xl border border-border bg-surface-raised px-6 py-10 text-center',
        className,
      )}
    >
      <span className="flex size-14 items-center justify-center rounded-2xl bg-rose-500/15 text-rose-300">
        <FileText aria-hidden="true" className="size-7" />
      </span>
      <p className="font-semibold text-foreground">{POST_TEXTS.pdfTile}</p>
    </div>
  );
}

/** A grid tile of a text file or Word document: its icon, kind and file name. */
export function DocumentTile({ kind, fileName, className }: { kind: 'text' | 'document'; fileName: string | null; className?: string }) {
  return (
    <div className={cn('flex flex-col items-center justify-center gap-2 rounded-xl border border-border bg-surface-raised px-4 py-10 text-center', className)}>
      <span className="flex size-14 items-center justify-center rounded-2xl bg-sky-500/15 text-sky-300">
        <FileText aria-hidden="true" className="size-7" />
      </span>
      <p className="font-semibold text-foreground">{kind === 'text' ? POST_TEXTS.textFile : POST_TEXTS.wordDocument}</p>
      {fileName ? <p className="w-full truncate text-xs text-muted">{fileName}</p> : null}
    </div>
  );
}

/** The dashed box that stands where a post's file cannot be shown. */
function MediaNotice({ className, role, children }: { className?: string; role?: 'status'; children: ReactNode }) {
  return (
    <div
      role={role}
      className={cn(
        'flex flex-col items-center justify-center gap-2 rounded-xl border border-dashed border-border-strong bg-surface-raised/50 px-6 py-10 text-center text-sm text-muted',
        className,
      )}
    >
      {children}
    </div>
  );
}

/** A post whose file the worker is still preparing (only its owner sees one). */
function ProcessingMedia() {
  return (
    <MediaNotice role="status">
      <LoaderCircle aria-hidden="true" className="size-7 animate-spin text-subtle" />
      {POST_TEXTS.publishing.description}
    </MediaNotice>
  );
}

export function UnsupportedMedia({ className }: { className?: string }) {
  return (
    <MediaNotice className={className}>
      <FileQuestionMark aria-hidden="true" className="size-7 text-subtle" />
      {POST_TEXTS.unsupportedFileType}
    </MediaNotice>
  );
}

/** The blurred preview (or a dark gradient when there is none) under the premium overlay. */
function PremiumLocked({ post, media, first }: { post: Post; media: Media; first: boolean }) {
  const loading = useImageLoading(first);
  // a pay-per-view post's overlay and its purchase confirmation (provided lazily by the app shell)
  const UnlockOverlay = useContext(PostUnlockSlot);
  return (
    <div
      data-testid="premium-locked"
      style={{ aspectRatio: aspectOf(media) }}
      className="relative max-h-[28rem] min-h-64 w-full overflow-hidden rounded-xl border border-amber-400/20 bg-[radial-gradient(ellipse_at_top,rgb(139_92_246/0.35),transparent_60%),linear-gradient(135deg,#1b1326,#0d0d12)]"
    >
      {media.previewUrl ? (
        <img
          src={media.previewUrl}
          alt=""
          {...loading}
          decoding="async"
          width={media.width ?? undefined}
          height={media.height ?? undefined}
          onError={onImageError}
          className="absolute inset-0 size-full scale-110 object-cover blur-sm"
        />
      ) : null}
      {post.unlock && !post.unlock.unlocked && UnlockOverlay ? (
        <Suspense fallback={null}>
          <UnlockOverlay post={post} />
        </Suspense>
      ) : (
        <PremiumOverlay username={post.creator.username} />
      )}
    </div>
  );
}

export function PremiumOverlay({ username, compact = false }: { username: string; compact?: boolean }) {
  return (
    <div className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-black/45 p-4 text-center">
      <span
        className={cn(
          'flex items-center justify-center rounded-full bg-amber-400/15 text-amber-300 ring-1 ring-amber-300/30 backdrop-blur-md',
          compact ? 'size-9' : 'size-12',
        )}
      >
        <Lock aria-hidden="true" className={compact ? 'size-4' : 'size-5'} />
      </span>
      <p className={cn('font-semibold text-white drop-shadow', compact ? 'text-sm' : 'text-lg')}>{POST_TEXTS.premiumOverlay.title}</p>
      <Link
        to="/$username/subscribe"
        params={{ username }}
        className={buttonClasses({ size: 'sm', className: compact ? 'h-7 px-2.5 text-xs' : undefined })}
      >
        {POST_TEXTS.premiumOverlay.description}
      </Link>
    </div>
  );
}
