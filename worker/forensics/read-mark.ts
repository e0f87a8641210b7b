import type { GrayClip } from './gray-frames';

/**
 * Reading the forensic mark's bits from a leak (docs/media.md, "Tracing a leak"). Pure: grey
 * frames in, bits out. The leak may start anywhere in the video, be scaled to any size and cropped
 * by a few percent; so it is first aligned with the post's own picture (variant A of its lowest
 * rung), in time then in space, and only then compared, segment by segment, with variants A and B
 * seen through the same window.
 */

/** A window of the reference picture, as fractions of its width and height. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface ReadBit {
  /** the segment's index in the ladder */
  segment: number;
  bit: 0 | 1;
  /** how far the leak leans to B (+1) or A (-1): about ±1 when clean, near 0 when unreadable */
  lean: number;
}

export interface MarkReading {
  /** leak frame j shows reference frame j + offset */
  offsetFrames: number;
  /** mean correlation of the aligned pictures (1: the same picture) */
  timeMatch: number;
  window: Rect;
  windowMatch: number;
  bits: ReadBit[];
}

/** Grid the signatures of time alignment are made on, and the finer one of space and bits. */
const COARSE = { w: 16, h: 9 };
const FINE = { w: 32, h: 18 };
/** Sizes of the window tried, as fractions of the reference (a crop of up to 12 % each way). */
const WINDOW_SIZES = [1, 0.98, 0.96, 0.94, 0.92, 0.9, 0.88];
/** Frames either side of a segment's cut left out: the leak's own encoder blurs a cut over a frame or two. */
const CUT_MARGIN_S = 0.15;
/** A segment is read when the leak covers at least this share of its inner frames. */
const MIN_COVERAGE = 0.6;

type Integral = { data: Float64Array; w: number; h: number };

function integralOf(frame: Uint8Array, w: number, h: number): Integral {
  const data = new Float64Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += frame[y * w + x]!;
      data[(y + 1) * (w + 1) + x + 1] = data[y * (w + 1) + x + 1]! + row;
    }
  }
  return { data, w, h };
}

/** The integral at a fractional point (pixels), bilinear between the four around it. */
function at(I: Integral, x: number, y: number): number {
  const cx = Math.min(Math.max(x, 0), I.w);
  const cy = Math.min(Math.max(y, 0), I.h);
  const x0 = Math.min(Math.floor(cx), I.w - 1);
  const y0 = Math.min(Math.floor(cy), I.h - 1);
  const fx = cx - x0;
  const fy = cy - y0;
  const s = I.w + 1;
  const d = I.data;
  const a = d[y0 * s + x0]!;
  const b = d[y0 * s + x0 + 1]!;
  const c = d[(y0 + 1) * s + x0]!;
  const e = d[(y0 + 1) * s + x0 + 1]!;
  return a * (1 - fx) * (1 - fy) + b * fx * (1 - fy) + c * (1 - fx) * fy + e * fx * fy;
}

/** The window of a frame averaged onto a grid of `gw` x `gh` cells (area resampling). */
function resample(I: Integral, rect: Rect, gw: number, gh: number): Float64Array {
  const out = new Float64Array(gw * gh);
  const cw = (rect.w * I.w) / gw;
  const ch = (rect.h * I.h) / gh;
  const area = cw * ch;
  for (let j = 0; j < gh; j++) {
    const y0 = rect.y * I.h + j * ch;
    for (let i = 0; i < gw; i++) {
      const x0 = rect.x * I.w + i * cw;
      out[j * gw + i] = (at(I, x0 + cw, y0 + ch) - at(I, x0, y0 + ch) - at(I, x0 + cw, y0) + at(I, x0, y0)) / area;
    }
  }
  return out;
}

/** Zero mean, unit length (a flat picture stays all zero). */
function normalised(v: Float64Array): Float64Array {
  let mean = 0;
  for (const x of v) mean += x;
  mean /= v.length;
  let norm = 0;
  const out = new Float64Array(v.length);
  for (let i = 0; i < v.length; i++) {
    out[i] = v[i]! - mean;
    norm += out[i]! * out[i]!;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i]! /= norm;
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

const FULL: Rect = { x: 0, y: 0, w: 1, h: 1 };

/**
 * Where the leak's frames fall in the reference's: the offset whose pictures agree best. A frame's
 * signature is its coarse picture and its change from the frame before (what moves tells instants
 * apart where the setting stays the same); frames of the leak outside the reference count as no
 * match, so a short overlap never wins by chance.
 */
function alignTime(leak: GrayClip, reference: GrayClip): { offset: number; match: number } {
  const sig = (clip: GrayClip) => {
    const pictures = clip.frames.map((f) => resample(integralOf(f, clip.width, clip.height), FULL, COARSE.w, COARSE.h));
    return pictures.map((p, j) => {
      const before = pictures[Math.max(0, j - 1)]!;
      const out = new Float64Array(p.length * 2);
      const still = normalised(p);
      const change = normalised(p.map((v, i) => v - before[i]!));
      for (let i = 0; i < p.length; i++) {
        out[i] = still[i]! / Math.SQRT2;
        out[p.length + i] = change[i]! / Math.SQRT2;
      }
      return out;
    });
  };
  const l = sig(leak);
  const r = sig(reference);
  const minOverlap = Math.min(l.length, 10 * leak.fps);
  let best = { offset: 0, match: -Infinity };
  for (let offset = -(l.length - minOverlap); offset <= r.length - minOverlap; offset++) {
    const from = Math.max(0, -offset);
    const to = Math.min(l.length, r.length - offset);
    if (to - from < minOverlap) continue;
    let sum = 0;
    for (let j = from; j < to; j++) sum += dot(l[j]!, r[j + offset]!);
    const match = sum / l.length;
    if (match > best.match) best = { offset, match };
  }
  return best;
}

/** The window of the reference the leak shows: a grid of sizes and places, then a finer local search. */
function alignSpace(leak: GrayClip, reference: GrayClip, offset: number): { window: Rect; match: number } {
  const pairs: [Float64Array, Integral][] = [];
  const from = Math.max(0, -offset);
  const to = Math.min(leak.frames.length, reference.frames.length - offset);
  const step = Math.max(1, Math.floor((to - from) / 30));
  for (let j = from; j < to; j += step) {
    const l = normalised(resample(integralOf(leak.frames[j]!, leak.width, leak.height), FULL, FINE.w, FINE.h));
    pairs.push([l, integralOf(reference.frames[j + offset]!, reference.width, reference.height)]);
  }
  const score = (rect: Rect) => pairs.reduce((sum, [l, I]) => sum + dot(l, normalised(resample(I, rect, FINE.w, FINE.h))), 0) / pairs.length;
  let best = { window: FULL, match: score(FULL) };
  for (const w of WINDOW_SIZES) {
    for (const h of WINDOW_SIZES) {
      for (const ax of [0, 0.5, 1]) {
        for (const ay of [0, 0.5, 1]) {
          const rect = { x: ax * (1 - w), y: ay * (1 - h), w, h };
          const match = score(rect);
          if (match > best.match) best = { window: rect, match };
        }
      }
    }
  }
  // a finer look around it, a quarter percent at a time
  for (let round = 0; round < 12; round++) {
    let moved = false;
    for (const key of ['x', 'y', 'w', 'h'] as const) {
      for (const delta of [-0.0025, 0.0025]) {
        const rect = { ...best.window, [key]: best.window[key] + delta };
        if (rect.x < 0 || rect.y < 0 || rect.x + rect.w > 1 || rect.y + rect.h > 1 || rect.w < 0.8 || rect.h < 0.8) continue;
        const match = score(rect);
        if (match > best.match) {
          best = { window: rect, match };
          moved = true;
        }
      }
    }
    if (!moved) break;
  }
  return best;
}

/**
 * Each covered segment's bit: over its inner frames, the leak is fitted (least squares, after
 * each frame's mean is taken away) as α·(A+B)/2 + β·(B−A)/2, with A and B the two variants seen
 * through the leak's window; β near +1 is B, near −1 is A. The fit absorbs a change of contrast or
 * brightness by the leaker's encoder, and the picture itself (in both variants) drops out.
 */
function readBits(leak: GrayClip, a: GrayClip, b: GrayClip, offset: number, window: Rect, segments: readonly { start: number; end: number }[]): ReadBit[] {
  const bits: ReadBit[] = [];
  const fps = a.fps;
  for (const [segment, { start, end }] of segments.entries()) {
    const first = Math.ceil((start + CUT_MARGIN_S) * fps);
    const last = Math.floor((end - CUT_MARGIN_S) * fps);
    if (last < first) continue;
    let s11 = 0, s12 = 0, s22 = 0, s1y = 0, s2y = 0, used = 0;
    for (let f = first; f <= last; f++) {
      const j = f - offset;
      if (j < 0 || j >= leak.frames.length || f >= a.frames.length || f >= b.frames.length) continue;
      const y = resample(integralOf(leak.frames[j]!, leak.width, leak.height), FULL, FINE.w, FINE.h);
      const ra = resample(integralOf(a.frames[f]!, a.width, a.height), window, FINE.w, FINE.h);
      const rb = resample(integralOf(b.frames[f]!, b.width, b.height), window, FINE.w, FINE.h);
      const n = y.length;
      let my = 0, m1 = 0, m2 = 0;
      for (let i = 0; i < n; i++) {
        my += y[i]!;
        m1 += (ra[i]! + rb[i]!) / 2;
        m2 += (rb[i]! - ra[i]!) / 2;
      }
      my /= n;
      m1 /= n;
      m2 /= n;
      for (let i = 0; i < n; i++) {
        const x1 = (ra[i]! + rb[i]!) / 2 - m1;
        const x2 = (rb[i]! - ra[i]!) / 2 - m2;
        const yy = y[i]! - my;
        s11 += x1 * x1;
        s12 += x1 * x2;
        s22 += x2 * x2;
        s1y += x1 * yy;
        s2y += x2 * yy;
      }
      used++;
    }
    if (used < MIN_COVERAGE * (last - first + 1)) continue;
    const det = s11 * s22 - s12 * s12;
    if (!(det > 0)) continue;
    const lean = (s11 * s2y - s12 * s1y) / det;
    bits.push({ segment, bit: lean > 0 ? 1 : 0, lean });
  }
  return bits;
}

/**
 * The leak's bits, segment by segment. `a` and `b` are the two variants of the same rung decoded
 * like the leak (same rate), `segments` the ladder's segments as [start, end) seconds.
 */
export function readMark(leak: GrayClip, a: GrayClip, b: GrayClip, segments: readonly { start: number; end: number }[]): MarkReading {
  const time = alignTime(leak, a);
  const space = alignSpace(leak, a, time.offset);
  // the window found, the time again (a frame either way): a crop blurs the first guess
  let offset = time.offset;
  let timeMatch = time.match;
  for (const candidate of [time.offset - 1, time.offset + 1]) {
    const match = windowedMatch(leak, a, candidate, space.window);
    if (match > timeMatch) {
      offset = candidate;
      timeMatch = match;
    }
  }
  return { offsetFrames: offset, timeMatch, window: space.window, windowMatch: space.match, bits: readBits(leak, a, b, offset, space.window, segments) };
}

function windowedMatch(leak: GrayClip, reference: GrayClip, offset: number, window: Rect): number {
  let sum = 0;
  let count = 0;
  const from = Math.max(0, -offset);
  const to = Math.min(leak.frames.length, reference.frames.length - offset);
  for (let j = from; j < to; j += 3) {
    const l = normalised(resample(integralOf(leak.frames[j]!, leak.width, leak.height), FULL, FINE.w, FINE.h));
    const r = normalised(resample(integralOf(reference.frames[j + offset]!, reference.width, reference.height), window, FINE.w, FINE.h));
    sum += dot(l, r);
    count++;
  }
  return count > 0 ? sum / count : -Infinity;
}

/** The ladder's segments as [start, end) seconds, from their durations. */
export function segmentTimes(durations: readonly number[]): { start: number; end: number }[] {
  let t = 0;
  return durations.map((d) => {
    const s = { start: t, end: t + d };
    t += d;
    return s;
  });
}
