import { useEffect, useMemo } from 'react';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { noteSeen, threadOptions } from './messages-queries';
import { threadMessages } from './thread-cache';

/** The thread's pages, oldest message first; a failure other than 'not found' (the partner's own toast says that) is toasted. */
export function useThreadMessages(username: string, enabled: boolean) {
  const thread = trpc.messages.thread.useInfiniteQuery({ username }, { ...threadOptions, enabled });
  useEffect(() => {
    if (thread.isError && errorCode(thread.error) !== 'NOT_FOUND') notify.error({ title: 'Error', description: MESSAGE_TEXTS.loadFailed });
  }, [thread.isError, thread.error]);

  const messages = useMemo(() => threadMessages(thread.data), [thread.data]);
  // the newest message seen, for the catch-up after a reconnect
  useEffect(() => noteSeen(messages), [messages]);
  return { thread, messages };
}
