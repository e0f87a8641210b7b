/**
 * The forensic mark of paid videos (issue 49 item 3, docs/media.md "The forensic mark"): every
 * segment of the ladder is encoded twice, variant A and variant B, from the same decoded frames
 * with the same forced keyframes, so segment i of A and of B start and end at the same instants and
 * a viewer's playlist may take either for each i. They differ only by a faint, smooth luminance
 * pattern: A has the source minus it, B the source plus it (±MARK_LEVELS luma levels at most, a few
 * cycles across the frame). Low frequency is what survives a leaker's re-encode at a low bitrate,
 * a scale to 480p or lower and a crop of a few percent; a person does not see a 1 % change of
 * brightness that varies over a third of the screen. Pure: builds filter text.
 */

/** The pattern's peak, in 8-bit luma levels: A and B differ by twice this at the peak. */
export const MARK_LEVELS = 3;

/**
 * The pattern, in [-1, 1], of the normalised position (X/W, Y/H): two products of slow
 * sinusoids, under two cycles across the frame in either direction, so its energy is spread over
 * the whole picture (a crop or a flat region loses little of it) and its mean is near zero (the
 * overall brightness does not move between A and B).
 */
const PATTERN = '(sin(2*PI*(1.5*X/W)+0.7)*sin(2*PI*(Y/H)+0.3)+sin(2*PI*(1.25*X/W+0.75*Y/H)+1.1))/2';

/**
 * The filter that draws the mark of one variant, one frame of `width` x `height` that the
 * `blend` after it repeats for every frame: mid-grey (128) plus `sign` times the pattern in luma,
 * neutral chroma, so blend's grainmerge (a + b - 128) adds the signed pattern to the luma alone.
 * Drawn once per run (a single frame), so its cost does not grow with the video's length.
 */
export function markSourceFilter(width: number, height: number, sign: 1 | -1, label: string): string {
  return `color=c=black:s=${width}x${height}:r=1:d=1,format=yuv420p,geq=lum='128${sign > 0 ? '+' : '-'}${MARK_LEVELS}*${PATTERN}':cb=128:cr=128[${label}]`;
}

/** `[input]` plus the variant's mark, as `[output]` (yuv420p at the source's size). */
export function applyMarkFilter(input: string, mark: string, output: string): string {
  return `[${input}]format=yuv420p,setsar=1[${input}p];[${input}p][${mark}]blend=all_mode=grainmerge:repeatlast=1[${output}]`;
}

/** The folder and name of variant B of a rung ('360' → '360b'); A keeps the rung's own name. */
export const variantBName = (rung: string) => `${rung}b`;
