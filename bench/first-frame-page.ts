/**
 * The page bench/ladder.ts measures the time to first frame with (bundled by esbuild, served by
 * the bench's app as a static file): the product's own player start (`attachStream`,
 * src/lib/hls-playback.ts: hls.js on the lowest rung first) on a stream, or a plain <video src>
 * on an MP4 for the floor. The time runs from the start (the player given its source, play()
 * asked) to the first frame the browser presents (requestVideoFrameCallback).
 */
import { attachStream, type PlaybackMode } from '../src/lib/hls-playback';

export interface FirstFrame {
  ms: number;
  /** the frame's height: which rung the first frame came from */
  height: number;
  mode: PlaybackMode;
}

declare global {
  interface Window {
    firstFrame(kind: 'stream' | 'mp4', url: string): Promise<FirstFrame>;
  }
}

window.firstFrame = async (kind, url) => {
  const video = document.createElement('video');
  video.muted = true;
  video.playsInline = true;
  video.style.width = '640px';
  video.style.height = '360px';
  document.body.append(video);
  const started = performance.now();
  const presented = new Promise<number>((resolve) => video.requestVideoFrameCallback(() => resolve(performance.now())));
  let mode = 'mp4' as PlaybackMode;
  if (kind === 'stream') {
    // no MP4 to fall back to: a stream that fails must fail the figure, not time another file
    await attachStream(video, url, '/no-fallback.mp4', (m) => (mode = m));
  } else {
    video.src = url;
  }
  await video.play();
  const at = await presented;
  if (kind === 'stream' && mode !== 'hls.js') throw new Error(`the stream did not play through hls.js (${mode})`);
  return { ms: at - started, height: video.videoHeight, mode };
};
