import type { PostDto, PostMediaDto } from './post-dtos';

/**
 * The sizes the worker makes of a post image (worker/media/image.ts reads these widths: thumb 320
 * px, medium 720 px and web 1080 px wide at most), as a `srcset` the browser picks from for the
 * box it draws the picture in, and that box's width as `sizes`. Used by the image itself (src/)
 * and by the page's preload of its largest picture (`leadImageOf`, which a route's loader names), so both ask for
 * the same file. Only the sizes a file has are offered: images made before 'medium' have none.
 *
 * Medium is 720 px, not 640: a phone 412 px wide at 1.75x (Lighthouse's) draws a feed-wide
 * picture 380 CSS px wide, 665 device px, and Chromium takes the first size at least that wide,
 * so a 640 px one was never chosen there; so does a 360 px phone at 2x (656). 720 also fits the
 * post page's 720 px column and the feed's 624 px one on a desktop at 1x.
 */
export const THUMB_WIDTH = 320;
export const MEDIUM_WIDTH = 720;
/** web's limit, also for a file whose width is not known */
export const WEB_WIDTH = 1080;

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
export function imageSources(media: Pick<PostMediaDto, 'url' | 'thumbUrl' | 'mediumUrl' | 'width'>, box: ImageBox): ImageSources | null {
  if (!media.url) return null;
  const width = media.width ?? WEB_WIDTH;
  // a smaller size is offered only where it is smaller: a picture no wider than the thumb has nothing to choose between
  const smaller = [
    { url: media.thumbUrl, width: THUMB_WIDTH },
    { url: media.mediumUrl, width: MEDIUM_WIDTH },
  ].filter((size): size is { url: string; width: number } => !!size.url && size.width < width);
  if (smaller.length === 0) return { src: media.url, srcSet: undefined, sizes: undefined };
  const srcSet = [...smaller, { url: media.url, width }].map((size) => `${size.url} ${size.width}w`).join(', ');
  return { src: media.url, srcSet, sizes: IMAGE_SIZES[box] };
}

/**
 * A post's picture as its card shows it, for the page's preload of its largest paint: the image
 * sized to its box, or a locked post's blurred preview; null for a post without a picture.
 */
export function leadImageOf(post: PostDto | null | undefined, box: ImageBox): ImageSources | null {
  const media = post?.media;
  if (!post || !media) return null;
  if (!post.viewer.canViewMedia) return media.previewUrl ? { src: media.previewUrl, srcSet: undefined, sizes: undefined } : null;
  return post.mediaKind === 'image' ? imageSources(media, box) : null;
}
