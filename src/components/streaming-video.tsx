import { useEffect, useRef, useState, type PointerEvent, type VideoHTMLAttributes } from 'react';
import { onPlayerError } from '../lib/media-errors';
import type { PlaybackMode, ThumbnailCue } from '../lib/hls-playback';

/** The height from the video's bottom edge where the browser draws its seek bar: a pointer there previews the time under it. */
const SEEK_BAR_ZONE_PX = 48;

/**
 * A video with controls (a post's, a chat video), streamed from its HLS ladder when it has one (../lib/hls-playback.ts,
 * loaded with the first video: never in the landing page's script) and the MP4 otherwise.
 * `data-playback` says which is playing (hls.js, native, mp4). With the ladder's thumbnail strip,
 * a pointer along the seek bar shows the picture at that time above it.
 */
export function StreamingVideo({
  streamUrl,
  mp4Url,
  onVideo,
  ...props
}: {
  streamUrl: string | null;
  mp4Url: string;
  /** hears the video element once mounted, for a caller that drives it too (a chat bubble's autoplay) */
  onVideo?: (video: HTMLVideoElement | null) => void;
} & Omit<VideoHTMLAttributes<HTMLVideoElement>, 'src' | 'onError'>) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    onVideo?.(ref.current);
    return () => onVideo?.(null);
  }, [onVideo]);
  const mode = useRef<PlaybackMode | 'starting'>(streamUrl ? 'starting' : 'mp4');
  const [thumbnails, setThumbnails] = useState<ThumbnailCue[]>([]);
  const [preview, setPreview] = useState<{ cue: ThumbnailCue; left: number } | null>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || !streamUrl) return;
    let detach: (() => void) | null = null;
    let gone = false;
    const setMode = (m: PlaybackMode) => {
      mode.current = m;
      video.dataset.playback = m;
    };
    import('../lib/hls-playback')
      .then(async ({ attachStream, loadThumbnails }) => {
        const attached = await attachStream(video, streamUrl, mp4Url, setMode);
        if (gone) return attached.detach();
        detach = attached.detach;
        if (attached.mode === 'mp4') return;
        const cues = await loadThumbnails(streamUrl.replace(/master\.m3u8$/, 'thumbs.vtt'));
        if (!gone) setThumbnails(cues);
      })
      .catch(() => {
        // the player's script did not load (offline, a new deploy): the MP4 still plays
        if (!gone) {
          setMode('mp4');
          video.src = mp4Url;
        }
      });
    return () => {
      gone = true;
      detach?.();
    };
  }, [streamUrl, mp4Url]);

  const onPointerMove = (event: PointerEvent<HTMLVideoElement>) => {
    const video = event.currentTarget;
    const box = video.getBoundingClientRect();
    if (thumbnails.length === 0 || !(video.duration > 0) || box.bottom - event.clientY > SEEK_BAR_ZONE_PX) return setPreview(null);
    const x = event.clientX - box.left;
    const at = (x / box.width) * video.duration;
    const cue = thumbnails.find((c) => at >= c.start && at < c.end) ?? thumbnails[thumbnails.length - 1]!;
    setPreview({ cue, left: Math.min(Math.max(0, x - cue.w / 2), box.width - cue.w) });
  };
  const toast = onPlayerError('video');
  return (
    <>
      <video
        ref={ref}
        src={streamUrl ? undefined : mp4Url}
        data-playback={streamUrl ? undefined : 'mp4'}
        data-stream={streamUrl ?? undefined}
        // a stream's errors fall back to the MP4 first (hls-playback.ts); the MP4's own are the viewer's to hear
        onError={(event) => {
          if (mode.current === 'mp4') toast(event);
        }}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setPreview(null)}
        {...props}
      />
      {preview ? (
        <div
          aria-hidden="true"
          data-testid="seek-preview"
          className="pointer-events-none absolute rounded-md border border-white/40 shadow-lg"
          style={{
            left: preview.left,
            bottom: SEEK_BAR_ZONE_PX + 8,
            width: preview.cue.w,
            height: preview.cue.h,
            backgroundImage: `url("${preview.cue.url}")`,
            backgroundPosition: `-${preview.cue.x}px -${preview.cue.y}px`,
          }}
        />
      ) : null}
    </>
  );
}
