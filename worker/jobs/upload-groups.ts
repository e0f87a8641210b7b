import type { WorkerDeps } from '../registry';
import { deleteGroupUploads, findAbandonedGroupUploads } from './upload-groups.queries';

const PAGE = 200;

/**
 * Posts of several files whose files never all arrived (issue 29): after UPLOAD_EXPIRY_HOURS
 * (when tus refuses to continue their missing files anyway) the bytes that did arrive leave
 * storage, then their rows. Idempotent: the files go first and a missing one is no error, so a
 * retry after a crash finds the rows again and finishes.
 */
export async function expireAbandonedGroups(deps: Pick<WorkerDeps, 'db' | 'storage'>, maxAgeMs: number, now = Date.now()): Promise<{ groupFiles: number }> {
  const before = new Date(now - maxAgeMs);
  let removed = 0;
  for (;;) {
    const rows = await findAbandonedGroupUploads(deps.db, before, PAGE);
    if (rows.length === 0) return { groupFiles: removed };
    for (const row of rows) if (row.source_key) await deps.storage.delete(row.source_key);
    removed += await deleteGroupUploads(
      deps.db,
      rows.map((r) => r.id),
    );
    if (rows.length < PAGE) return { groupFiles: removed };
  }
}
