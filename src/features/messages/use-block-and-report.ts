import type { Messaging } from '../../../common/message-dtos';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { serverMessage } from './server-message';

const toastError = (description: string) => notify.error({ title: 'Error', description });

/**
 * Block, unblock and report in a thread (issue 12 §6). A block or unblock, by either of us,
 * changes this thread at once: the composer gives way to the reason (or comes back) and the
 * online dot goes (the server also takes us out of the room); `onCutOff` drops a reply or an
 * edit under way.
 */
export function useBlockAndReport(username: string, partnerId: string | null, partnerUsername: string, onCutOff: () => void) {
  const utils = trpc.useUtils();

  useRealtimeEvent('messaging:changed', ({ partnerId: changed, messaging }) => {
    if (changed !== partnerId) return;
    if (messaging === 'available') return void utils.messages.partner.invalidate({ username });
    onCutOff();
    utils.messages.partner.setData({ username }, (data) => (data ? { ...data, messaging, online: null } : data));
  });

  const setMessaging = (messaging: Messaging) =>
    utils.messages.partner.setData({ username }, (data) => (data ? { ...data, messaging } : data));
  const block = async () => {
    try {
      setMessaging((await utils.client.messages.block.mutate({ username })).messaging);
      onCutOff();
      notify.success({ title: `You blocked @${partnerUsername}` });
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.userNotFound));
    }
  };
  const unblock = async () => {
    try {
      setMessaging((await utils.client.messages.unblock.mutate({ username })).messaging);
      notify.success({ title: `You unblocked @${partnerUsername}` });
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.userNotFound));
    }
  };
  /** true when the report went through */
  const report = async (messageId: string, reason: string) => {
    try {
      await utils.client.messages.report.mutate({ messageId, reason });
      notify.success({ title: 'Report sent', description: 'Thank you. Our team will review this message.' });
      return true;
    } catch (error) {
      toastError(serverMessage(error, MESSAGE_TEXTS.messageNotFound));
      return false;
    }
  };

  return { block, unblock, report };
}
