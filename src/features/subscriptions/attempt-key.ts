import { useCallback, useRef } from 'react';

/**
 * One idempotency key per payment attempt (issue 11: 'a double click, two tabs or a retried request
 * make one subscription and one charge'). The key is made on the first press and kept until the
 * server has answered, so a second press or a retry after a dropped connection sends the same key
 * and the server returns the first result instead of charging again. A server answer (success or
 * refusal) ends the attempt: the next press is a new intent with a new key.
 */
export function useAttemptKeys() {
  const keys = useRef(new Map<string, string>());
  const keyFor = useCallback((scope: string) => {
    let key = keys.current.get(scope);
    if (!key) {
      key = crypto.randomUUID();
      keys.current.set(scope, key);
    }
    return key;
  }, []);
  const settle = useCallback((scope: string) => {
    keys.current.delete(scope);
  }, []);
  return { keyFor, settle };
}
