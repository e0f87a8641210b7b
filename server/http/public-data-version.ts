import type { AppDeps } from '../../core/deps';
import { readPublicVersions, type PublicVersions } from './public-cache.queries';

export type { PublicVersions };

/**
 * The versions of public data (public-cache.queries.ts) as of after a request arrived, read once per
 * turn of the event loop for all the requests that arrived in it (always after they arrived, so a
 * request never sees an answer older than the writes it follows): one lock-free statement shared by
 * every anonymous list and media request of the turn. Null when PostgreSQL did not answer (the
 * caller then answers without its memory).
 */
export function publicVersionReader(deps: Pick<AppDeps, 'db' | 'log'>): () => Promise<PublicVersions | null> {
  let pending: Promise<PublicVersions | null> | null = null;
  return () =>
    (pending ??= new Promise<PublicVersions | null>((resolve) =>
      setImmediate(() => {
        pending = null;
        readPublicVersions(deps.db).then(resolve, (err: unknown) => {
          deps.log.warn({ err }, 'public data version unread: answering without the cache');
          resolve(null);
        });
      }),
    ));
}
