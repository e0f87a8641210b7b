import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { fontFiles } from './card-fonts';
import type { CardNode } from './card-layout';
import { CARD_HEIGHT, CARD_WIDTH } from './card-model';

/** The drawing thread's messages (card-raster-worker.mjs). */
interface RasterRequest {
  id: number;
  tree: CardNode;
}
type RasterReply = { id: number; png: Uint8Array; layoutMs: number; rasterMs: number } | { id: number; error: string };

/** A card that takes longer than this is given up (and its thread started afresh). */
const RENDER_TIMEOUT_MS = 20_000;
/** JPEG, not PNG: a third to a tenth of the bytes with a photo in it, and every scraper reads it. */
const JPEG_QUALITY = 86;

export interface RenderedCard {
  jpeg: Buffer;
  /** satori's layout and resvg's rasterising, in the drawing thread */
  layoutMs: number;
  rasterMs: number;
}

interface Waiting {
  resolve: (reply: Extract<RasterReply, { png: Uint8Array }>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * The drawing thread (card-raster-worker.mjs), started with the first card and kept: it draws one
 * card at a time, in order. It does not keep the process alive, and a thread that failed or hung
 * is replaced for the next card.
 */
let worker: Worker | null = null;

let nextId = 1;
const waiting = new Map<number, Waiting>();

function failAll(error: Error) {
  for (const [id, w] of waiting) {
    clearTimeout(w.timer);
    w.reject(error);
    waiting.delete(id);
  }
}

function drawingThread(): Worker {
  if (worker) return worker;
  const started = new Worker(new URL('./card-raster-worker.mjs', import.meta.url), {
    workerData: { width: CARD_WIDTH, height: CARD_HEIGHT, fontFiles: fontFiles() },
  });
  started.on('message', (reply: RasterReply) => {
    const w = waiting.get(reply.id);
    if (!w) return;
    waiting.delete(reply.id);
    clearTimeout(w.timer);
    if ('error' in reply) w.reject(new Error(`link card drawing failed: ${reply.error}`));
    else w.resolve(reply);
  });
  const gone = (error: Error) => {
    if (worker === started) worker = null;
    failAll(error);
  };
  started.on('error', gone);
  started.on('exit', (code) => gone(new Error(`link card drawing thread exited (${code})`)));
  // after the listeners: attaching one may hold the process again
  started.unref();
  worker = started;
  return started;
}

/** Cards asked for and not yet drawn (the route refuses more past its limit). */
export const cardsInLine = () => waiting.size;

/** The card as a JPEG: drawn in the drawing thread, encoded by sharp (libuv's threads). */
export async function renderCard(tree: CardNode): Promise<RenderedCard> {
  const thread = drawingThread();
  const id = nextId++;
  const drawn = await new Promise<Extract<RasterReply, { png: Uint8Array }>>((resolve, reject) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      reject(new Error('link card drawing timed out'));
      // a thread stuck on one card would hold every later one up
      void thread.terminate();
    }, RENDER_TIMEOUT_MS);
    waiting.set(id, { resolve, reject, timer });
    thread.postMessage({ id, tree } satisfies RasterRequest);
  });
  const jpeg = await sharp(drawn.png).jpeg({ quality: JPEG_QUALITY, chromaSubsampling: '4:4:4' }).toBuffer();
  return { jpeg, layoutMs: drawn.layoutMs, rasterMs: drawn.rasterMs };
}
