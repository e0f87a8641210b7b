/**
 * How a post's video plays (docs/media.md): its HLS ladder through hls.js where Media Source
 * Extensions exist (hls.js picks the rung by measured bandwidth, starting on the lowest for a fast
 * first frame), natively where the browser plays HLS itself (Safari), else the MP4. Any failure of
 * the stream (no ladder yet: the playlist answers 404; an error hls.js cannot recover) falls back
 * to the MP4 at the same time. A segment refused (403: its URL expired) starts the stream again
 * from a fresh playlist, which runs the access check again: a fan who lost access gets 403 there,
 * and the MP4 (refused too) shows the player's error. Loaded only by a video that plays, never by
 * the landing page's script; hls.js itself only where it is used.
 */

export type PlaybackMode = 'hls.js' | 'native' | 'mp4';

/** Another restart within this long is a loop, not an expired URL: fall back instead. */
const RESTART_GAP_MS = 30_000;

export interface AttachedStream {
  mode: PlaybackMode;
  detach(): void;
}

type MediaSourceWindow = typeof window & { ManagedMediaSource?: unknown };

export async function attachStream(video: HTMLVideoElement, streamUrl: string, mp4Url: string, onMode: (mode: PlaybackMode) => void): Promise<AttachedStream> {
  const hasMse = typeof (window as MediaSourceWindow).MediaSource !== 'undefined' || typeof (window as MediaSourceWindow).ManagedMediaSource !== 'undefined';
  if (hasMse) {
    const { default: Hls } = await import('hls.js');
    if (Hls.isSupported()) return attachHlsJs(Hls, video, streamUrl, mp4Url, onMode);
  }
  if (video.canPlayType('application/vnd.apple.mpegurl')) {
    const fallback = () => {
      onMode('mp4');
      playMp4(video, mp4Url, video.currentTime);
    };
    video.addEventListener('error', fallback, { once: true });
    video.src = streamUrl;
    onMode('native');
    return { mode: 'native', detach: () => video.removeEventListener('error', fallback) };
  }
  video.src = mp4Url;
  onMode('mp4');
  return { mode: 'mp4', detach: () => {} };
}

function playMp4(video: HTMLVideoElement, mp4Url: string, at: number) {
  const wasPlaying = !video.paused;
  video.src = mp4Url;
  if (at > 0) video.addEventListener('loadedmetadata', () => (video.currentTime = at), { once: true });
  if (wasPlaying) void video.play().catch(() => {});
}

function attachHlsJs(Hls: typeof import('hls.js').default, video: HTMLVideoElement, streamUrl: string, mp4Url: string, onMode: (mode: PlaybackMode) => void): AttachedStream {
  let hls: InstanceType<typeof Hls> | null = null;
  let lastRestart = 0;
  const start = (at: number) => {
    const instance = new Hls({
      // the lowest rung first: the first frame comes soonest; the bandwidth estimate moves it up
      startLevel: 0,
      // The estimate is an average weighted by download time, and a segment fetched on a fast
      // connection takes little of it: with hls.js's half-lives (3 s / 9 s) a fan whose slow
      // connection became fast kept the lowest rung for more than 18 segments (36 s of video,
      // measured on loopback); with 1 s / 3 s it moves up about 8 segments after. A dip still
      // moves it down at once (hls.js abandons a fragment that would stall the picture).
      abrEwmaFastVoD: 1,
      abrEwmaSlowVoD: 3,
      startPosition: at > 0 ? at : -1,
      // the app's Content-Security-Policy has no worker-src for blob: workers
      enableWorker: false,
      capLevelToPlayerSize: true,
    });
    hls = instance;
    instance.on(Hls.Events.ERROR, (_event, data) => {
      if (!data.fatal || hls !== instance) return;
      const at = video.currentTime;
      instance.destroy();
      hls = null;
      const refused = data.response?.code === 403 && data.details === Hls.ErrorDetails.FRAG_LOAD_ERROR;
      if (refused && Date.now() - lastRestart > RESTART_GAP_MS) {
        lastRestart = Date.now();
        start(at);
        return;
      }
      onMode('mp4');
      playMp4(video, mp4Url, at);
    });
    instance.loadSource(streamUrl);
    instance.attachMedia(video);
  };
  start(0);
  onMode('hls.js');
  return {
    mode: 'hls.js',
    detach: () => {
      hls?.destroy();
      hls = null;
    },
  };
}

/** One tile of the seek-preview strip: from `start` to `end` seconds, the sprite's region x,y,w,h. */
export interface ThumbnailCue {
  start: number;
  end: number;
  url: string;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The strip's WebVTT (its cues name the sprite with #xywh=); none when there is none (404) or it cannot be read. */
export async function loadThumbnails(vttUrl: string): Promise<ThumbnailCue[]> {
  const res = await fetch(vttUrl, { credentials: 'same-origin' }).catch(() => null);
  if (!res?.ok) return [];
  return parseThumbnailVtt(await res.text());
}

export function parseThumbnailVtt(text: string): ThumbnailCue[] {
  const seconds = (t: string) => t.split(':').reduce((sum, part) => sum * 60 + Number.parseFloat(part), 0);
  const cues: ThumbnailCue[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length - 1; i++) {
    const timing = /^([\d:.]+)\s+-->\s+([\d:.]+)/.exec(lines[i]!);
    const target = /^(.*)#xywh=(\d+),(\d+),(\d+),(\d+)$/.exec(lines[i + 1] ?? '');
    if (!timing || !target) continue;
    cues.push({ start: seconds(timing[1]!), end: seconds(timing[2]!), url: target[1]!, x: Number(target[2]), y: Number(target[3]), w: Number(target[4]), h: Number(target[5]) });
  }
  return cues;
}
