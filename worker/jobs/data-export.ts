import { ZipArchive } from 'archiver';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { MAIL_JOB_OPTIONS } from '../../common/jobs';
import { DATA_EXPORT, DATA_EXPORT_TEXTS } from '../../common/security';
import { addToOutbox, dispatchOutbox } from '../../core/outbox/outbox';
import type { WorkerDeps } from '../registry';
import { exportTempPrefix } from '../temp-dirs';
import { collectUserData, findExportStatus, markDataExportFailed, markExportReady, startExportRun } from './data-export.queries';

export const exportReadyJobId = (exportId: string) => `export-ready-${exportId}`;

/**
 * "Download my data" (issues 13 and 23): one zip with the user's profile, posts (with each post's
 * media as stored: processed and watermarked, the upload itself is not kept; README.txt says so),
 * comments, messages (both directions), subscriptions (both sides) and payments, as JSON.
 * Built in a temp folder (swept at a worker's start when its worker died: worker/temp-dirs.ts),
 * stored under exports/<userId>/<exportId>.zip, then the owner is mailed a link that only their
 * session can open (server/features/account/export-download.ts); the mail's outbox row is written
 * with 'ready'. Idempotent: a ready or failed export is skipped; a run that restarts (a worker
 * killed, the job retried) starts over from the rows. Each start is counted first: past
 * DATA_EXPORT.maxRuns the export fails with its reason on the screen instead of hanging.
 */
export async function buildDataExport(deps: WorkerDeps, exportId: string): Promise<{ skipped?: string; bytes?: number }> {
  const { db, storage } = deps;
  const started = await startExportRun(db, exportId);
  if (!started) return { skipped: (await findExportStatus(db, exportId)) ?? 'gone' };
  if (started.runs > DATA_EXPORT.maxRuns) {
    await markDataExportFailed(db, exportId);
    deps.log.error({ exportId, runs: started.runs - 1 }, 'data export failed for good: every run ended before the zip was built');
    return { skipped: 'failed' };
  }
  const userId = started.user_id;

  const data = await collectUserData(db, userId);
  const dir = await mkdtemp(path.join(tmpdir(), exportTempPrefix(exportId)));
  const zipPath = path.join(dir, 'export.zip');
  try {
    const archive = new ZipArchive({ zlib: { level: 6 } });
    const written = pipeline(archive, createWriteStream(zipPath));
    const addJson = (name: string, value: unknown) => archive.append(JSON.stringify(value, null, 2), { name });
    archive.append(DATA_EXPORT_TEXTS.readme, { name: 'README.txt' });
    addJson('profile.json', data.profile);
    addJson('posts.json', data.posts);
    addJson('comments.json', data.comments);
    addJson('messages.json', data.messages);
    addJson('subscriptions.json', data.subscriptions);
    addJson('payments.json', data.payments);
    // One stored file open at a time: the next is appended once the previous became an entry.
    for (const file of data.originals) {
      const object = await storage.get(file.key).catch(() => null);
      if (!object) continue;
      const entered = new Promise<void>((resolve) => archive.once('entry', () => resolve()));
      archive.append(object.stream, { name: `media/${file.postId}/${path.basename(file.key)}` });
      await entered;
    }
    await archive.finalize();
    await written;

    const key = `exports/${userId}/${exportId}.zip`;
    const size = (await stat(zipPath)).size;
    if (storage.putFile) await storage.putFile(key, zipPath, 'application/zip');
    else await storage.put(key, createReadStream(zipPath), 'application/zip');
    const mail = await db.transaction().execute(async (trx) => {
      if (!(await markExportReady(trx, exportId, key, size))) return null;
      return addToOutbox(trx, { queue: 'mail', name: 'export-ready', data: { userId, exportId }, jobId: exportReadyJobId(exportId), options: MAIL_JOB_OPTIONS });
    });
    if (!mail) {
      // The account (or the export) was deleted or replaced meanwhile: the file must not stay behind.
      await storage.delete(key);
      return { skipped: 'gone' };
    }
    await dispatchOutbox(deps, [mail]);
    return { bytes: size };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
