import { Router, type Request, type Response } from 'express';
import { Counter } from 'prom-client';
import { readId } from '../../../common/ids';
import type { PostDto } from '../../../common/post-dtos';
import type { ProfileDto } from '../../../common/profile-dtos';
import { BRAND, SERVER_TEXTS } from '../../../common/texts';
import { readUsernameSegment } from '../../../common/username-segment';
import type { AppDeps } from '../../../core/deps';
import { isDependencyUnavailable } from '../../../core/dependency-errors';
import { processRegistry } from '../../../core/metrics';
import { countLocally } from '../../auth/local-rate-limit';
import { hitRateLimit, type RateLimit, type RateLimitResult } from '../../auth/rate-limit';
import { readPublicDataVersion } from '../../http/public-cache.queries';
import { cardCache } from './card-cache';
import { loadCard, type CardTarget } from './card-data';
import { cardLayout } from './card-layout';
import { CARD_HEIGHT, CARD_WIDTH, cardPath, cardVersion, postCard, profileCard, type Card } from './card-model';
import { cardPictures } from './card-pictures';
import { cardsInLine, renderCard } from './card-raster';

/** The first path segment of the cards (a reserved username: common/reserved-usernames.ts). */
export const OG_CARD_PREFIX = '/og';

/** Requests for cards one address may make a minute: a scraper reading a page of links is well within it. */
export const OG_CARD_RATE_LIMIT: RateLimit = { points: 120, windowSeconds: 60 };
/** Cards waiting to be drawn past which new ones are refused for a moment (503): a storm of distinct cards queues no further. */
const MAX_CARDS_IN_LINE = 16;
/** An address whose version is not the current one (or none) is kept this long: it may change at any time. */
const UNVERSIONED_MAX_AGE_S = 300;

export const ogCardRequests = new Counter({
  name: 'og_card_total',
  help: 'Link preview cards asked for, by outcome: rendered now, served from this copy\'s cache, not modified (304), not found, refused (429/503)',
  labelNames: ['outcome'] as const,
  registers: [processRegistry],
});

export interface CardImage {
  /** absolute, with the card's version: a new name, avatar or count is a new address */
  url: string;
  width: number;
  height: number;
  alt: string;
}

function cardImage(appUrl: string, card: Card): CardImage {
  const alt =
    card.kind === 'profile'
      ? `${card.name} (@${card.username}) on ${BRAND.name}`
      : `${card.title}, a post by ${card.creator.name} (@${card.creator.username})`;
  return { url: `${appUrl}${cardPath(card)}?v=${cardVersion(card)}`, width: CARD_WIDTH, height: CARD_HEIGHT, alt };
}

/** The link preview picture of a profile, from what a visitor sees of it (page-html.ts puts it in the head). */
export const profileCardImage = (appUrl: string, profile: ProfileDto): CardImage => cardImage(appUrl, profileCard(profile));
/** The link preview picture of a post, from what a visitor sees of it: a premium post's shows only its blurred preview. */
export const postCardImage = (appUrl: string, post: PostDto): CardImage => cardImage(appUrl, postCard(post));

/** `<name>.jpg` of the path, or null. */
function targetOf(kind: string, file: string): CardTarget | null {
  const name = /^(.+)\.jpg$/.exec(file)?.[1];
  if (!name) return null;
  if (kind === 'post') {
    const id = readId(name);
    return id ? { kind: 'post', id } : null;
  }
  const { username } = readUsernameSegment(name);
  return username ? { kind: 'profile', username } : null;
}

/** This server as its own visitor: the address the request came in on (card-pictures.ts fetches through it). */
function selfOrigin(req: Request): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  return `http://${address.includes(':') ? `[${address}]` : address}:${req.socket.localPort}`;
}

const matches = (req: Request, etag: string) => req.headers['if-none-match']?.split(',').some((t) => t.trim().replace(/^W\//, '') === etag) ?? false;

function refuse(res: Response, status: number, message: string) {
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error: { message } });
}

/**
 * GET /og/profile/<username>.jpg and /og/post/<id>.jpg: the 1200x630 link preview picture of a
 * public profile or post (issue 50 item 2), drawn on the server (card-layout.ts, satori and resvg
 * in a thread of their own: card-raster.ts) from what a visitor may see of it, and nothing else
 * (card-data.ts, card-pictures.ts). A private, hidden or unknown profile, a draft or unknown post
 * is 404, whoever asks.
 *
 * The page's head names the card with its version (`?v=`): that address is the same picture for
 * good (`immutable`, a year); any other is the current card for a few minutes. Every answer has
 * the version as its ETag (304 on If-None-Match, without drawing). Each copy keeps the cards it
 * drew (card-cache.ts): while the public data version has not moved the card is served without a
 * query; after, its data is read again and it is drawn anew only when something on it changed.
 * Counted per address (OG_CARD_RATE_LIMIT; in memory while Redis is away).
 */
export function ogCardRoutes(deps: AppDeps): Router {
  const router = Router();
  const cache = cardCache();
  // one read of the data version per turn of the event loop, for every card asked for in it
  let versionRead: Promise<string | null> | null = null;
  const dataVersion = () =>
    (versionRead ??= new Promise<string | null>((resolve) =>
      setImmediate(() => {
        versionRead = null;
        readPublicDataVersion(deps.db).then(resolve, () => resolve(null));
      }),
    ));

  const limited = async (req: Request): Promise<RateLimitResult> => {
    const id = `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
    try {
      return await hitRateLimit(deps.redis, deps.config.REDIS_PREFIX, 'og-card', [id], OG_CARD_RATE_LIMIT);
    } catch (error) {
      if (!isDependencyUnavailable(error)) throw error;
      return countLocally('og-card', OG_CARD_RATE_LIMIT, id);
    }
  };

  const send = (req: Request, res: Response, version: string, jpeg: Buffer) => {
    res.setHeader('Cache-Control', req.query.v === version ? 'public, max-age=31536000, immutable' : `public, max-age=${UNVERSIONED_MAX_AGE_S}`);
    res.setHeader('ETag', `"${version}"`);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    // shown by other sites (helmet's default for the app is same-origin)
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    if (matches(req, `"${version}"`)) {
      ogCardRequests.inc({ outcome: 'not_modified' });
      return void res.status(304).end();
    }
    res.setHeader('Content-Type', 'image/jpeg');
    res.setHeader('Content-Length', String(jpeg.length));
    res.status(200).end(req.method === 'HEAD' ? undefined : jpeg);
  };

  router.get(`${OG_CARD_PREFIX}/:kind/:file`, async (req, res) => {
    const verdict = await limited(req);
    if (!verdict.allowed) {
      ogCardRequests.inc({ outcome: 'refused' });
      res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
      return refuse(res, 429, SERVER_TEXTS.tooManyRequests);
    }
    const target = req.params.kind === 'profile' || req.params.kind === 'post' ? targetOf(req.params.kind, req.params.file) : null;
    if (!target) {
      ogCardRequests.inc({ outcome: 'not_found' });
      return refuse(res, 404, 'Not found');
    }
    const key = target.kind === 'profile' ? `profile:${target.username}` : `post:${target.id}`;
    // read before the card's data, so an entry is never thought newer than what it shows
    const version = await dataVersion();
    const kept = cache.get(key);
    if (kept && version !== null && kept.dataVersion === version) {
      if (!matches(req, `"${kept.version}"`)) ogCardRequests.inc({ outcome: 'cached' });
      return send(req, res, kept.version, kept.jpeg);
    }

    const card = await loadCard(deps, req, res, target);
    if (!card) {
      cache.delete(key);
      ogCardRequests.inc({ outcome: 'not_found' });
      return refuse(res, 404, 'Not found');
    }
    const cardVer = cardVersion(card);
    if (kept?.version === cardVer) {
      cache.set(key, { ...kept, dataVersion: version });
      if (!matches(req, `"${cardVer}"`)) ogCardRequests.inc({ outcome: 'cached' });
      return send(req, res, cardVer, kept.jpeg);
    }
    // the scraper's copy is this very card: no need to draw it
    if (matches(req, `"${cardVer}"`)) return send(req, res, cardVer, Buffer.alloc(0));

    const drawing = cache.drawOnce(key, cardVer, async () => {
      if (cardsInLine() >= MAX_CARDS_IN_LINE) throw new CardsBusy();
      const pictures = await cardPictures(card, selfOrigin(req));
      const rendered = await renderCard(cardLayout(card, pictures, new URL(deps.config.appUrl).host));
      deps.log.debug({ card: key, layoutMs: Math.round(rendered.layoutMs), rasterMs: Math.round(rendered.rasterMs), bytes: rendered.jpeg.length }, 'link card drawn');
      cache.set(key, { version: cardVer, jpeg: rendered.jpeg, dataVersion: version });
      return rendered.jpeg;
    });
    let jpeg: Buffer;
    try {
      jpeg = await drawing.jpeg;
    } catch (error) {
      if (!(error instanceof CardsBusy)) throw error;
      ogCardRequests.inc({ outcome: 'refused' });
      res.setHeader('Retry-After', '5');
      return refuse(res, 503, SERVER_TEXTS.unavailable);
    }
    ogCardRequests.inc({ outcome: drawing.shared ? 'cached' : 'rendered' });
    send(req, res, cardVer, jpeg);
  });
  // nothing else lives under /og: not a page of the app either
  router.use(OG_CARD_PREFIX, (_req, res) => refuse(res, 404, 'Not found'));
  return router;
}

class CardsBusy extends Error {}
