import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const eslint = new ESLint({ cwd: repoRoot });

/** The import-boundary messages ESLint reports for `code` placed at `filePath` (the file need not exist). */
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, filePath) });
  return result!.messages
    .filter((m) => m.severity === 2 && /restricted-(imports|syntax)$/.test(m.ruleId ?? ''))
    .map((m) => m.message);
}

// The first lint loads every plugin and the type-aware parser: seconds on a busy machine.
describe('import boundaries (eslint.config.js, DESIGN.md Layout)', { timeout: 60_000 }, () => {
  it.each([
    ['server/ importing worker/', 'server/features/posts/sample.ts', "import { runWorkers } from '../../../worker/workers';\nvoid runWorkers;\n"],
    ['server/ importing scripts/', 'server/sample.ts', "import { inProcessWorkers } from '../scripts/in-process-workers';\nvoid inProcessWorkers;\n"],
    ['server/ importing worker/ lazily', 'server/http/sample.ts', "export const load = () => import('../../worker/workers');\n"],
    ['worker/ importing server/ features', 'worker/jobs/sample.ts', "import { retryProcessing } from '../../server/features/posts/processing.service';\nvoid retryProcessing;\n"],
    ['worker/ importing server/ types', 'worker/sample.ts', "import type { AppRouter } from '../server/trpc/router';\nexport type R = AppRouter;\n"],
    ['core/ importing domain/', 'core/db/sample.ts', "import { canSeeProfile } from '../../domain/access/access';\nvoid canSeeProfile;\n"],
    ['domain/ importing server/', 'domain/access/sample.ts', "import { createApp } from '../../server/app';\nvoid createApp;\n"],
    ['common/ importing core/', 'common/sample.ts', "import { loadConfig } from '../core/config';\nvoid loadConfig;\n"],
    ['common/ importing node:*', 'common/sample.ts', "import { createHash } from 'node:crypto';\nvoid createHash;\n"],
    ['src/ importing server/ code', 'src/lib/sample.ts', "import { appRouter } from '../../server/trpc/router';\nvoid appRouter;\n"],
    ['src/ importing core/ types', 'src/lib/sample.ts', "import type { Config } from '../../core/config';\nexport type C = Config;\n"],
    // server features are fenced like the client's (docs/architecture.md, Layout)
    ["a server feature importing another feature's service", 'server/features/bookmarks/sample.ts', "import { feed } from '../posts/posts.service';\nvoid feed;\n"],
    ["a server feature importing another feature's queries' types", 'server/features/creator-stats/sample.ts', "import type { TierRow } from '../tiers/tiers.queries';\nexport type T = TierRow;\n"],
    ['a server feature reaching another through features/', 'server/features/explore/sample.ts', "import { findFeedPage } from '../../features/posts/posts.queries';\nvoid findFeedPage;\n"],
    ["server/http/ importing a feature's service", 'server/http/sample.ts', "import { decideMediaRequest } from '../features/posts/media.service';\nvoid decideMediaRequest;\n"],
    ['server/shared/ importing a feature', 'server/shared/sample.ts', "import { findFeedPage } from '../features/posts/posts.queries';\nvoid findFeedPage;\n"],
  ])('refuses %s', async (_name, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toHaveLength(1);
  });

  it.each([
    ['core/ importing common/', 'core/db/sample.ts', "import { QUEUE_NAMES } from '../../common/jobs';\nvoid QUEUE_NAMES;\n"],
    ['domain/ importing core/ and domain/', 'domain/access/sample.ts', "import type { DB } from '../../core/db/kysely';\nimport { findPostToProcess } from '../processing/processing.queries';\nexport const f = (db: DB) => findPostToProcess(db, 'x');\n"],
    ['server/ importing domain/', 'server/features/posts/sample.ts', "import { canSeeProfile } from '../../../domain/access/access';\nvoid canSeeProfile;\n"],
    ['worker/ importing core/ and domain/', 'worker/jobs/sample.ts', "import { hashToken } from '../../core/token-hash';\nimport { canSeeProfile } from '../../domain/access/access';\nvoid hashToken;\nvoid canSeeProfile;\n"],
    ['src/ importing server/ types', 'src/lib/sample.ts', "import type { AppRouter } from '../../server/trpc/router';\nexport type R = AppRouter;\n"],
    ['a server feature importing its own files, server/shared/ and server/auth/', 'server/features/bookmarks/sample.ts', "import { insertBookmark } from './bookmarks.queries';\nimport { cardPage } from '../../shared/post-cards/post-cards';\nimport { hashPassword } from '../../auth/password';\nvoid insertBookmark;\nvoid cardPage;\nvoid hashPassword;\n"],
    ["the app reaching features through their routers and routes", 'server/sample.ts', "import { postsRouter } from './features/posts/posts.router';\nimport { mediaRoutes } from './features/posts/media.http';\nvoid postsRouter;\nvoid mediaRoutes;\n"],
    ['a domain/ test using tests/helpers', 'domain/access/sample.test.ts', "import { makeUser } from '../../tests/helpers/factories';\nvoid makeUser;\n"],
  ])('allows %s', async (_name, filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([]);
  });
});
