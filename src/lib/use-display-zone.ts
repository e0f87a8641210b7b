import { useSyncExternalStore } from 'react';
import type { DisplayZone } from './format';

const never = () => () => {};

/**
 * The zone to show dates in (lib/format.ts): 'utc' while rendering on the server and while the
 * browser hydrates that HTML (React reads the server snapshot then), so both renders write the
 * same text; React re-renders right after with 'local'. A page rendered only in the browser is
 * 'local' from its first render.
 */
export function useDisplayZone(): DisplayZone {
  return useSyncExternalStore(
    never,
    () => 'local',
    () => 'utc',
  );
}
