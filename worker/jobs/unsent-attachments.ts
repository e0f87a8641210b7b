import { deleteUnsentAttachments } from '../../domain/messaging/attachments';
import type { WorkerDeps } from '../registry';

const PAGE = 200;
/** A run deletes this many at most; the rest go on the next one (every 15 minutes). */
const MAX_PAGES = 25;

/**
 * 'expire-unsent-attachments' (repeatable, issue 23): chat attachments that no message carries,
 * uploaded more than UNSENT_ATTACHMENT_TTL_HOURS ago, leave the table and then storage (their
 * upload and their processed file). Each one also counts against its owner's quota of unsent
 * files until then (server/features/messages/attachments.service.ts). Idempotent: a file already
 * gone is not an error, and a row is deleted once. One still processing goes too: its job then
 * finds it gone and deletes only its own run's file (message-attachment.ts).
 */
export async function expireUnsentAttachments(deps: Pick<WorkerDeps, 'db' | 'storage' | 'log' | 'config'>, now = new Date()) {
  const before = new Date(now.getTime() - deps.config.UNSENT_ATTACHMENT_TTL_HOURS * 3_600_000);
  let deleted = 0;
  let files = 0;
  for (let page = 0; page < MAX_PAGES; page++) {
    const rows = await deleteUnsentAttachments(deps.db, before, PAGE);
    for (const row of rows) {
      for (const key of row.keys) {
        await deps.storage.delete(key).catch((error: unknown) => deps.log.warn({ err: error, attachmentId: row.id }, 'could not delete an unsent attachment file'));
        files++;
      }
    }
    deleted += rows.length;
    if (rows.length < PAGE) break;
  }
  if (deleted) deps.log.info({ deleted, files }, 'unsent chat attachments expired');
  return { deleted, files };
}
