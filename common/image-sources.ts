import type { PostMediaDto } from './post-dtos';

/**
 * The sizes the worker makes of a post image (worker/media/image.ts: thumb 320 px wide, web
 * 1080 px wide at most), as a `srcset` the browser picks from for the box it draws the picture
 * in, and that box's width as `sizes`. Used by the image itself (src/) and by the page's preload
 * of its largest picture (server/http/page-html.ts), so both ask for the same file.
 */
export const THUMB_WIDTH = 320;

/** The box a post image is drawn in: the feed's column (max-w-2xl), the post page's (max-w-3xl), a grid tile. */
export const IMAGE_SIZES = {
  feed: '(min-width: 768px) 624px, calc(100vw - 32px)',
  detail: '(min-width: 768px) 720px, calc(100vw - 32px)',
  tile: '(min-width: 768px) 240px, 50vw',
} as const;
export type ImageBox = keyof typeof IMAGE_SIZES;

export interface ImageSources {
  src: string;
  srcSet: string | undefined;
  sizes: string | undefined;
}

/** `src`, `srcset` and `sizes` of an image post the viewer may see; null when it has no picture to show. */
export function imageSources(media: Pick<PostMediaDto, 'url' | 'thumbUrl' | 'width'>, box: ImageBox): ImageSources | null {
  if (!media.url) return null;
  const width = media.width ?? null;
  // a picture no wider than the thumb has nothing to choose between
  if (!media.thumbUrl || (width !== null && width <= THUMB_WIDTH)) return { src: media.url, srcSet: undefined, sizes: undefined };
  return { src: media.url, srcSet: `${media.thumbUrl} ${THUMB_WIDTH}w, ${media.url} ${width ?? 1080}w`, sizes: IMAGE_SIZES[box] };
}
