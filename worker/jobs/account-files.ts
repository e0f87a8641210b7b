import type { WorkerDeps } from '../registry';

/**
 * The files of a deleted account (or of its deleted data): the deletion's transaction listed their
 * keys in storage_deletions under one batch; this removes each file, then its row, a page at a
 * time. Idempotent: a missing file is not an error, so a retry after a crash finishes the rest,
 * and keys added to the batch while it runs are picked up by the next page.
 */
export async function deleteQueuedFiles(deps: Pick<WorkerDeps, 'db' | 'storage'>, batch: string): Promise<{ deleted: number }> {
  let deleted = 0;
  for (;;) {
    const rows = await deps.db
      .selectFrom('storage_deletions')
      .select('storage_key')
      .where('batch', '=', batch)
      .orderBy('storage_key')
      .limit(200)
      .execute();
    if (rows.length === 0) return { deleted };
    for (const { storage_key } of rows) await deps.storage.delete(storage_key);
    await deps.db
      .deleteFrom('storage_deletions')
      .where(
        'storage_key',
        'in',
        rows.map((r) => r.storage_key),
      )
      .execute();
    deleted += rows.length;
  }
}

/** Exports past their expiry: the file goes first, then the row (a retry finds the row again). */
export async function expireDataExports(deps: Pick<WorkerDeps, 'db' | 'storage'>, now = new Date()): Promise<{ expired: number }> {
  const rows = await deps.db.selectFrom('data_exports').select(['id', 'storage_key']).where('expires_at', '<=', now).limit(500).execute();
  for (const row of rows) {
    if (row.storage_key) await deps.storage.delete(row.storage_key);
    await deps.db.deleteFrom('data_exports').where('id', '=', row.id).execute();
  }
  return { expired: rows.length };
}
