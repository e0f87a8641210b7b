import type { QueueHandlers } from '../registry';
import { buildDataExport } from './data-export';
import { markDataExportFailed } from './data-export.queries';

export const exportHandlers: QueueHandlers<'exports'> = {
  /** "Download my data": the zip, then the mail with its link (issues 13 and 23). */
  async 'build-data-export'(job, deps) {
    try {
      return await buildDataExport(deps, job.data.exportId);
    } catch (error) {
      // the last attempt: the screen stops showing 'Preparing', says why, and offers to ask again
      if (job.attemptsMade + 1 >= (job.opts.attempts ?? 1)) await markDataExportFailed(deps.db, job.data.exportId);
      throw error;
    }
  },
};
