import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Router, type Application } from 'express';
import { QUEUE_NAMES } from '../../common/jobs';
import type { AppDeps } from '../../core/deps';
import { sessionUserOf } from './session-user';

export const ADMIN_QUEUES_PATH = '/admin/queues';

type RenderFile = (file: string, options: object, done: (error: Error | null, html?: string) => void) => void;

/** the dashboard template's stylesheet link to Google Fonts */
const THIRD_PARTY_FONTS = /<link[^>]+href="https:\/\/fonts\.googleapis\.com\/[^>]*>\s*/g;

/**
 * The queue dashboard (Bull Board) at /admin/queues: every queue (mail, maintenance, media,
 * transcode) with its waiting, active, delayed, completed and failed jobs, their data, progress,
 * failure reasons and logs, and retry/remove buttons. Admins only (users.role = 'admin', granted
 * by `npm run admin -- grant <email>`): 401 without a session, 403 for everyone else, for the
 * page, its assets and its API alike. Its POSTs (retry, clean) pass the app's Origin check.
 */
export function adminRoutes(deps: AppDeps): Router {
  const board = new ExpressAdapter();
  board.setBasePath(ADMIN_QUEUES_PATH);
  createBullBoard({
    queues: QUEUE_NAMES.map((name) => new BullMQAdapter(deps.queues[name], { allowRetries: true })),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'CreatorHub queues' } },
  });
  // Bull Board's page asks Google Fonts for its typeface, which the policy (server/app.ts) refuses
  // (a console error on every visit): the page is served without that link, in the system's sans
  // and monospace fonts, and nothing is fetched from a third party.
  const app = board.getRouter() as Application;
  // the engine Bull Board registered (express keeps it in app.engines, untyped)
  const ejs = (app as unknown as { engines: Record<string, RenderFile | undefined> }).engines['.ejs'];
  if (ejs) {
    app.engine('ejs', (file, options, done) =>
      ejs(file, options, (error: Error | null, html?: string) => done(error, html?.replace(THIRD_PARTY_FONTS, ''))),
    );
  }
  const router = Router();
  router.use(
    ADMIN_QUEUES_PATH,
    async (req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      const user = await sessionUserOf(deps, req, res);
      if (!user) return void res.status(401).json({ error: { code: 'UNAUTHORIZED', message: 'Please sign in' } });
      if (user.role !== 'admin') return void res.status(403).json({ error: { code: 'FORBIDDEN', message: 'Admins only' } });
      next();
    },
    board.getRouter(),
  );
  return router;
}
