import { FileText, Loader2, TriangleAlert } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { messageStreamUrlOf, type MessageMediaKind } from '../../../common/messages';
import { cn } from '../../lib/cn';
import { onImageError, onPlayerError } from '../../lib/media-errors';
import { formatBytes } from './message-format';

/**
 * Plays a video muted when 70% of it is visible, and pauses it when it scrolls away (spec part 2
 * §2, §9); only for items that are not replies (the caller decides).
 */
function useAutoplay(video: HTMLVideoElement | null, enabled: boolean) {
  useEffect(() => {
    if (!enabled || !video) return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        if (entry.intersectionRatio >= 0.7) void video.play().catch(() => undefined);
        else video.pause();
      },
      { threshold: [0, 0.7] },
    );
    observer.observe(video);
    return () => observer.disconnect();
  }, [video, enabled]);
}

// the streaming player (and hls.js after it) loads with the first chat video shown
const StreamingVideo = lazy(() => import('../../components/streaming-video').then((m) => ({ default: m.StreamingVideo })));

const VIDEO_CLASS = 'max-h-80 w-full rounded-xl bg-black';

/** A chat video: streamed from its HLS ladder once the server has one (the MP4 until then, and for a pending message's blob). */
function VideoPlayer({ src, autoplay }: { src: string; autoplay: boolean }) {
  // the element shown (the streaming player's arrives after its script): autoplay follows it
  const [video, setVideo] = useState<HTMLVideoElement | null>(null);
  useAutoplay(video, autoplay);
  const streamUrl = messageStreamUrlOf(src);
  if (!streamUrl) {
    return <video ref={setVideo} src={src} controls muted playsInline preload="metadata" onError={onPlayerError('video')} className={VIDEO_CLASS} data-testid="message-video" />;
  }
  return (
    <Suspense fallback={<video controls muted playsInline preload="none" className={VIDEO_CLASS} data-testid="message-video" />}>
      <StreamingVideo onVideo={setVideo} streamUrl={streamUrl} mp4Url={src} controls muted playsInline preload="metadata" className={VIDEO_CLASS} data-testid="message-video" />
    </Suspense>
  );
}

function DocumentCard({ name, size, href }: { name: string; size: number | null; href: string | null }) {
  const body = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-canvas/40">
        <FileText aria-hidden="true" className="size-5" />
      </span>
      <span className="flex min-w-0 flex-col">
        <span className="truncate text-sm font-medium">{name}</span>
        {size != null ? <span className="text-xs opacity-75">{formatBytes(size)}</span> : null}
      </span>
    </>
  );
  return href ? (
    <a href={href} download={name} className="flex items-center gap-3 rounded-xl bg-black/20 p-2.5 hover:bg-black/30">
      {body}
    </a>
  ) : (
    <div className="flex items-center gap-3 rounded-xl bg-black/20 p-2.5">{body}</div>
  );
}

/** the tallest an image is shown (max-h-80) */
const IMAGE_MAX_HEIGHT_PX = 320;

/**
 * An image's box before its bytes arrive, from the served file's size: as wide as it is shown
 * (its own width, narrower when it would pass the height cap, and the bubble's width caps it in
 * CSS) at its aspect ratio, so a loading image does not push the thread about.
 */
function reservedBox(width: number | null | undefined, height: number | null | undefined): React.CSSProperties | undefined {
  if (!width || !height) return undefined;
  return { width: Math.min(width, (IMAGE_MAX_HEIGHT_PX * width) / height), aspectRatio: `${width} / ${height}` };
}

/** A file shown from a local blob (a pending message) or the server's media route. */
export function MediaView({
  kind,
  src,
  name,
  size,
  autoplay,
  width,
  height,
}: {
  kind: MessageMediaKind;
  src: string;
  name: string;
  size: number | null;
  autoplay: boolean;
  /** the served image's pixel size, when known */
  width?: number | null;
  height?: number | null;
}) {
  if (kind === 'image') {
    const box = reservedBox(width, height);
    return (
      <a href={src} target="_blank" rel="noopener noreferrer" className="block">
        <img
          src={src}
          alt={name || 'Photo'}
          loading="lazy"
          onError={onImageError}
          style={box}
          className={cn('max-h-80 max-w-full rounded-xl object-contain', box ? 'h-auto' : 'w-auto')}
          data-testid="message-image"
        />
      </a>
    );
  }
  if (kind === 'video') return <VideoPlayer src={src} autoplay={autoplay} />;
  if (kind === 'audio') return <audio src={src} controls preload="metadata" onError={onPlayerError('audio')} className="w-64 max-w-full" />;
  return <DocumentCard name={name} size={size} href={src.startsWith('blob:') ? null : `${src}?download=1`} />;
}

/** A sent message's attachment: processing, failed (the reason), or the file itself. */
export function AttachmentView({ attachment, autoplay }: { attachment: MessageAttachmentDto; autoplay: boolean }) {
  if (attachment.status === 'failed') {
    return (
      <p className="flex items-center gap-2 rounded-xl bg-rose-500/15 px-3 py-2 text-sm text-rose-200">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        {attachment.failureReason ?? 'This file could not be processed.'}
      </p>
    );
  }
  if (attachment.status === 'processing' || !attachment.url) {
    return (
      <p role="status" className="flex items-center gap-2 rounded-xl bg-black/20 px-3 py-2 text-sm">
        <Loader2 aria-hidden="true" className="size-4 animate-spin motion-reduce:animate-none" />
        Processing {attachment.fileName}…
      </p>
    );
  }
  return (
    <MediaView
      kind={attachment.kind}
      src={attachment.url}
      name={attachment.fileName}
      size={attachment.byteSize}
      autoplay={autoplay}
      width={attachment.width}
      height={attachment.height}
    />
  );
}
