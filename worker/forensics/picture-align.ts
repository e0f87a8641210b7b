/**
 * Finding where a suspected leak sits on the original picture, on greyscale pixels (pure
 * arithmetic, no I/O): a leak is the picture scaled down, re-encoded and cropped by a few percent
 * on any side, so it shows a region of the original at one unknown scale. The search is a grid
 * of scales (the fraction of the original's width the leak shows) and, per scale, every offset,
 * first on pictures a quarter the size, then around the best at full working size; the measure is
 * the normalised cross-correlation, which ignores a change of brightness or contrast.
 */
export interface Grey {
  data: Float32Array;
  width: number;
  height: number;
}

export interface Placement {
  /** the region of the original (working size) the leak shows */
  left: number;
  top: number;
  width: number;
  height: number;
  /** normalised cross-correlation of the leak with that region, in [-1, 1] */
  correlation: number;
}

/** The leak's width as a fraction of the original's: from no crop down to this (crops of up to ~6% a side). */
export const MIN_WIDTH_FRACTION = 0.88;

export function toGrey(data: Uint8Array | Buffer, width: number, height: number): Grey {
  return { data: Float32Array.from(data), width, height };
}

/** Box-averaged smaller copy (factor an integer). */
export function shrink(image: Grey, factor: number): Grey {
  const width = Math.floor(image.width / factor);
  const height = Math.floor(image.height / factor);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let sum = 0;
      for (let dy = 0; dy < factor; dy++) {
        const row = (y * factor + dy) * image.width + x * factor;
        for (let dx = 0; dx < factor; dx++) sum += image.data[row + dx]!;
      }
      data[y * width + x] = sum / (factor * factor);
    }
  }
  return { data, width, height };
}

/** Bilinear resample to an exact size (the leak brought to a candidate scale). */
export function resample(image: Grey, width: number, height: number): Grey {
  const data = new Float32Array(width * height);
  const sx = image.width / width;
  const sy = image.height / height;
  for (let y = 0; y < height; y++) {
    const fy = Math.min(image.height - 1, Math.max(0, (y + 0.5) * sy - 0.5));
    const y0 = Math.floor(fy);
    const y1 = Math.min(image.height - 1, y0 + 1);
    const wy = fy - y0;
    for (let x = 0; x < width; x++) {
      const fx = Math.min(image.width - 1, Math.max(0, (x + 0.5) * sx - 0.5));
      const x0 = Math.floor(fx);
      const x1 = Math.min(image.width - 1, x0 + 1);
      const wx = fx - x0;
      const top = image.data[y0 * image.width + x0]! * (1 - wx) + image.data[y0 * image.width + x1]! * wx;
      const bottom = image.data[y1 * image.width + x0]! * (1 - wx) + image.data[y1 * image.width + x1]! * wx;
      data[y * width + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return { data, width, height };
}

/** Normalised cross-correlation of `patch` with the region of `base` at (left, top). */
export function correlationAt(base: Grey, patch: Grey, left: number, top: number): number {
  let sb = 0;
  let sp = 0;
  let sbb = 0;
  let spp = 0;
  let sbp = 0;
  for (let y = 0; y < patch.height; y++) {
    const brow = (top + y) * base.width + left;
    const prow = y * patch.width;
    for (let x = 0; x < patch.width; x++) {
      const b = base.data[brow + x]!;
      const p = patch.data[prow + x]!;
      sb += b;
      sp += p;
      sbb += b * b;
      spp += p * p;
      sbp += b * p;
    }
  }
  const n = patch.width * patch.height;
  const cov = sbp - (sb * sp) / n;
  const vb = sbb - (sb * sb) / n;
  const vp = spp - (sp * sp) / n;
  return vb > 0 && vp > 0 ? cov / Math.sqrt(vb * vp) : 0;
}

function bestOffset(base: Grey, patch: Grey, xs: [number, number], ys: [number, number]) {
  let best = { left: 0, top: 0, correlation: -2 };
  for (let top = Math.max(0, ys[0]); top <= Math.min(base.height - patch.height, ys[1]); top++) {
    for (let left = Math.max(0, xs[0]); left <= Math.min(base.width - patch.width, xs[1]); left++) {
      const correlation = correlationAt(base, patch, left, top);
      if (correlation > best.correlation) best = { left, top, correlation };
    }
  }
  return best;
}

/** The leak's size at working scale when it shows `fraction` of the original's width. */
function sizeAt(original: Grey, leak: Grey, fraction: number) {
  const width = Math.max(8, Math.round(original.width * fraction));
  const height = Math.max(8, Math.round((width * leak.height) / leak.width));
  return { width, height };
}

/**
 * Where the leak sits on the original (both greyscale; the original at working size, the leak
 * at any size). Null when the leak does not fit any region of the original at these scales.
 */
export function alignLeak(original: Grey, leak: Grey): Placement | null {
  const COARSE = 4;
  const smallOriginal = shrink(original, COARSE);
  const fractions: number[] = [];
  for (let f = 1; f >= MIN_WIDTH_FRACTION - 1e-9; f -= 0.01) fractions.push(f);
  let coarse: { fraction: number; left: number; top: number; correlation: number } | null = null;
  for (const fraction of fractions) {
    const size = sizeAt(original, leak, fraction);
    if (size.height > original.height) continue;
    const patch = resample(leak, Math.round(size.width / COARSE), Math.round(size.height / COARSE));
    if (patch.width > smallOriginal.width || patch.height > smallOriginal.height) continue;
    const found = bestOffset(smallOriginal, patch, [0, smallOriginal.width], [0, smallOriginal.height]);
    if (!coarse || found.correlation > coarse.correlation) coarse = { fraction, ...found };
  }
  if (!coarse) return null;
  let fine: Placement | null = null;
  for (let fraction = coarse.fraction - 0.012; fraction <= coarse.fraction + 0.012 + 1e-9; fraction += 0.003) {
    if (fraction > 1 + 1e-9) continue;
    const size = sizeAt(original, leak, Math.min(1, fraction));
    if (size.width > original.width || size.height > original.height) continue;
    const patch = resample(leak, size.width, size.height);
    const cx = coarse.left * COARSE;
    const cy = coarse.top * COARSE;
    const found = bestOffset(original, patch, [cx - COARSE - 2, cx + COARSE + 2], [cy - COARSE - 2, cy + COARSE + 2]);
    if (!fine || found.correlation > fine.correlation) fine = { ...found, width: size.width, height: size.height };
  }
  return fine;
}

/** The region of a working-size picture as its own Grey. */
export function region(image: Grey, place: Pick<Placement, 'left' | 'top' | 'width' | 'height'>): Grey {
  const data = new Float32Array(place.width * place.height);
  for (let y = 0; y < place.height; y++) {
    const from = (place.top + y) * image.width + place.left;
    data.set(image.data.subarray(from, from + place.width), y * place.width);
  }
  return { data, width: place.width, height: place.height };
}

/** Pearson correlation of two equal-length arrays. */
export function pearson(a: Float32Array, b: Float32Array): number {
  let sa = 0;
  let sb = 0;
  let saa = 0;
  let sbb = 0;
  let sab = 0;
  const n = a.length;
  for (let i = 0; i < n; i++) {
    const x = a[i]!;
    const y = b[i]!;
    sa += x;
    sb += y;
    saa += x * x;
    sbb += y * y;
    sab += x * y;
  }
  const cov = sab - (sa * sb) / n;
  const va = saa - (sa * sa) / n;
  const vb = sbb - (sb * sb) / n;
  return va > 0 && vb > 0 ? cov / Math.sqrt(va * vb) : 0;
}

/**
 * What the leak adds to the original's region: the leak minus the region mapped to the leak's
 * brightness and contrast (least squares), so a re-encode's global shift is not read as a mark.
 */
export function residual(leak: Grey, originalRegion: Grey): Float32Array {
  const n = leak.data.length;
  let so = 0;
  let sl = 0;
  let soo = 0;
  let sol = 0;
  for (let i = 0; i < n; i++) {
    const o = originalRegion.data[i]!;
    const l = leak.data[i]!;
    so += o;
    sl += l;
    soo += o * o;
    sol += o * l;
  }
  const varO = soo - (so * so) / n;
  const gain = varO > 0 ? (sol - (so * sl) / n) / varO : 1;
  const offset = (sl - gain * so) / n;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = leak.data[i]! - (gain * originalRegion.data[i]! + offset);
  return out;
}
