import { useCallback, useRef, useState } from 'react';
import { useRealtimeEvent } from '../../lib/realtime/listeners';

/** One file of a post of several after it was sent: what the worker says of it. */
export interface SentFile {
  name: string;
  state: 'waiting' | 'processing' | 'ready' | 'failed';
  /** 0-100 while processing */
  percent: number | null;
  reason: string | null;
}

export interface SentPost {
  optimisticId: string;
  files: SentFile[];
}

/**
 * The files of the post of several just sent from this form, each with its processing state from
 * the worker's `post:file` events (matched by the upload's optimisticId; the files' places are
 * their order in the form). Kept until the creator dismisses it or sends another post.
 */
export function useSentFiles() {
  const [sent, setSent] = useState<SentPost | null>(null);
  const current = useRef<string | null>(null);

  const start = useCallback((optimisticId: string, names: string[]) => {
    current.current = optimisticId;
    setSent({ optimisticId, files: names.map((name) => ({ name, state: 'waiting', percent: null, reason: null })) });
  }, []);
  const dismiss = useCallback(() => {
    current.current = null;
    setSent(null);
  }, []);

  useRealtimeEvent('post:file', ({ optimisticId, position, status, percent, reason }) => {
    if (!optimisticId || optimisticId !== current.current) return;
    setSent((post) =>
      post && post.optimisticId === optimisticId
        ? { ...post, files: post.files.map((f, i) => (i === position ? { ...f, state: status, percent: status === 'ready' ? 100 : percent, reason } : f)) }
        : post,
    );
  });

  return { sent, start, dismiss };
}
