import { useEffect, useRef, type VideoHTMLAttributes } from 'react';
import { onPlayerError } from '../../lib/media-errors';
import type { PlaybackMode } from '../../lib/hls-playback';

/**
 * A post's video with controls, streamed from its HLS ladder when it has one (../../lib/hls-playback.ts,
 * loaded with the first video: never in the landing page's script) and the MP4 otherwise.
 * `data-playback` says which is playing (hls.js, native, mp4).
 */
export function StreamingVideo({ streamUrl, mp4Url, ...props }: { streamUrl: string | null; mp4Url: string } & Omit<VideoHTMLAttributes<HTMLVideoElement>, 'src' | 'onError'>) {
  const ref = useRef<HTMLVideoElement>(null);
  const mode = useRef<PlaybackMode | 'starting'>(streamUrl ? 'starting' : 'mp4');
  useEffect(() => {
    const video = ref.current;
    if (!video || !streamUrl) return;
    let detach: (() => void) | null = null;
    let gone = false;
    const setMode = (m: PlaybackMode) => {
      mode.current = m;
      video.dataset.playback = m;
    };
    import('../../lib/hls-playback')
      .then(({ attachStream }) => attachStream(video, streamUrl, mp4Url, setMode))
      .then((attached) => {
        if (gone) attached.detach();
        else detach = attached.detach;
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
  const toast = onPlayerError('video');
  return (
    <video
      ref={ref}
      src={streamUrl ? undefined : mp4Url}
      data-playback={streamUrl ? undefined : 'mp4'}
      data-stream={streamUrl ?? undefined}
      // a stream's errors fall back to the MP4 first (hls-playback.ts); the MP4's own are the viewer's to hear
      onError={(event) => {
        if (mode.current === 'mp4') toast(event);
      }}
      {...props}
    />
  );
}
