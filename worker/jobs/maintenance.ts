import type { QueueHandlers } from '../registry';

export const maintenanceHandlers: QueueHandlers<'maintenance'> = {
  async 'purge-expired'(_job, { db }) {
    const now = new Date();
    const sessions = await db.deleteFrom('sessions').where('expires_at', '<', now).executeTakeFirst();
    const tokens = await db.deleteFrom('email_tokens').where('expires_at', '<', now).executeTakeFirst();
    return { sessions: Number(sessions.numDeletedRows), tokens: Number(tokens.numDeletedRows) };
  },
};
