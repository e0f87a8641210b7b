import sharp from 'sharp';
import { MAX_MEGAPIXELS, contentError } from './image';

/**
 * An avatar, file in, file out: the first frame of the image, turned upright (EXIF orientation),
 * cropped to a centred square of `side` pixels and re-encoded as WebP from the pixels alone, so
 * no EXIF, GPS, XMP, ICC profile or trailing payload survives. Within the same pixel limit as posts.
 */
export async function processAvatarImage(input: string, output: string, side: number): Promise<{ width: number; height: number }> {
  try {
    const info = await sharp(input, { limitInputPixels: MAX_MEGAPIXELS * 1_000_000, animated: false })
      .autoOrient()
      .resize(side, side, { fit: 'cover', position: 'centre' })
      .webp({ quality: 82 })
      .toFile(output);
    return { width: info.width, height: info.height };
  } catch (error) {
    throw contentError(error as Error);
  }
}
