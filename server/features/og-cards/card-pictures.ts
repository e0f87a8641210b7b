import sharp from 'sharp';
import type { CardPictures } from './card-layout';
import { CARD_HEIGHT, CARD_WIDTH, type Card } from './card-model';

/** What one picture may weigh and take: the app's own re-encoded files are far below both. */
const PICTURE_MAX_BYTES = 15 * 1024 * 1024;
const PICTURE_TIMEOUT_MS = 5_000;
/** the same bound as the media worker's (worker/media/image.ts MAX_MEGAPIXELS) */
const PICTURE_MAX_PIXELS = 40_000_000;

/** The boxes the layout draws them in (card-layout.ts), at 1x: the card is 1200x630 pixels. */
const BOX = {
  profileAvatar: 260,
  postAvatar: 72,
  postPicture: { width: 500, height: CARD_HEIGHT },
  /** blurred and stretched over the whole card: a small file is enough */
  backdrop: { width: CARD_WIDTH / 10, height: CARD_HEIGHT / 10 },
} as const;

/**
 * The card's pictures, fetched as a visitor fetches them: over HTTP from this server itself
 * (`origin`), with no cookie, through the same routes and access rule as any anonymous request
 * (/avatars, /media: a premium post's full media answers 403 to them). The card is drawn from
 * what that request returned and nothing else, so it cannot show more than a visitor may see. A
 * picture that cannot be had is left out (the layout draws the initial or no panel instead).
 */
export async function cardPictures(card: Card, origin: string): Promise<CardPictures> {
  if (card.kind === 'profile') {
    const avatar = card.avatarUrl ? await fetchPicture(origin, card.avatarUrl) : null;
    if (!avatar) return { avatar: null, picture: null, backdrop: null };
    const [round, backdrop] = await Promise.all([
      cover(avatar, BOX.profileAvatar, BOX.profileAvatar),
      cover(avatar, BOX.backdrop.width, BOX.backdrop.height, { blur: 2 }),
    ]);
    return { avatar: round, picture: null, backdrop };
  }
  const [avatar, picture] = await Promise.all([
    card.creator.avatarUrl ? fetchPicture(origin, card.creator.avatarUrl) : null,
    card.picture ? fetchPicture(origin, card.picture) : null,
  ]);
  return {
    avatar: avatar && (await cover(avatar, BOX.postAvatar * 2, BOX.postAvatar * 2)),
    // a blurred preview is a few dozen pixels wide: blurred again once stretched, so it reads as a blur, not as blocks
    picture: picture && (await cover(picture, BOX.postPicture.width, BOX.postPicture.height, { blur: card.locked ? 14 : undefined })),
    backdrop: null,
  };
}

/** The bytes of one of the site's own paths (`/avatars/...`, `/media/...`), or null. */
async function fetchPicture(origin: string, sitePath: string): Promise<Buffer | null> {
  // only the site's own paths: never another host, whatever a field holds
  if (!sitePath.startsWith('/') || sitePath.startsWith('//')) return null;
  try {
    const res = await fetch(new URL(sitePath, origin), { redirect: 'follow', signal: AbortSignal.timeout(PICTURE_TIMEOUT_MS) });
    if (!res.ok || !res.body || !/^image\//.test(res.headers.get('content-type') ?? '')) {
      await res.body?.cancel();
      return null;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return Buffer.concat(chunks);
      size += value.byteLength;
      if (size > PICTURE_MAX_BYTES) {
        await reader.cancel();
        return null;
      }
      chunks.push(Buffer.from(value));
    }
  } catch {
    return null;
  }
}

/** The picture cut to cover the box, upright, as a JPEG data: URI for satori; null when it is no image. */
async function cover(bytes: Buffer, width: number, height: number, opts: { blur?: number } = {}): Promise<string | null> {
  try {
    let image = sharp(bytes, { limitInputPixels: PICTURE_MAX_PIXELS, animated: false }).autoOrient().resize(width, height, { fit: 'cover', position: 'centre' });
    if (opts.blur) image = image.blur(opts.blur);
    const jpeg = await image.flatten({ background: '#08080b' }).jpeg({ quality: 85 }).toBuffer();
    return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  } catch {
    return null;
  }
}
