import { Router } from 'express';
import { listedCreatorWhere } from '../../domain/access/listing';
import type { AppDeps } from '../../core/deps';
import { escapeMarkup } from './page-html';

/** The sitemap protocol's limit of addresses in one file. */
const SITEMAP_MAX_URLS = 50_000;

/** Screens that are one person's own (or the API): nothing for a search engine. */
const DISALLOWED = ['/trpc/', '/settings', '/messages', '/admin', '/auth', '/create', '/subscribe', '/uploads', '/exports'];

/**
 * /robots.txt and /sitemap.xml (issue 30 item 5): the landing page and every creator anyone may
 * see (the listing rule of Explore and the featured creators: domain/access/listing.ts), so
 * private, hidden and friends-only profiles are never named. Media stays allowed: link previews
 * fetch their pictures through it.
 */
export function seoRoutes(deps: Pick<AppDeps, 'db' | 'config'>): Router {
  const router = Router();
  router.get('/robots.txt', (_req, res) => {
    const appUrl = deps.config.appUrl;
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('text/plain').send(['User-agent: *', ...DISALLOWED.map((p) => `Disallow: ${p}`), '', `Sitemap: ${appUrl}/sitemap.xml`, ''].join('\n'));
  });
  router.get('/sitemap.xml', async (_req, res) => {
    const appUrl = deps.config.appUrl;
    const creators = await deps.db
      .selectFrom('profiles as pr')
      .leftJoin('privacy_settings as ps', 'ps.user_id', 'pr.id')
      .select(['pr.username', 'pr.updated_at'])
      .where(listedCreatorWhere())
      .orderBy('pr.username')
      .limit(SITEMAP_MAX_URLS - 1)
      .execute();
    const url = (loc: string, lastmod?: Date) =>
      `  <url><loc>${escapeMarkup(loc)}</loc>${lastmod ? `<lastmod>${lastmod.toISOString().slice(0, 10)}</lastmod>` : ''}</url>`;
    const body = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      url(`${appUrl}/`),
      ...creators.map((c) => url(`${appUrl}/${encodeURIComponent(c.username)}`, c.updated_at)),
      '</urlset>',
      '',
    ].join('\n');
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.type('application/xml').send(body);
  });
  return router;
}
