import { MESSAGE_TEXTS } from '../../../common/texts';
import { errorCode, isServerError } from '../../lib/trpc';

/** The server's words when it answered, else the spec's fallback (spec part 2 §8). */
export function serverMessage(error: unknown, fallback: string): string {
  if (isServerError(error) && error.message && errorCode(error) !== 'INTERNAL_SERVER_ERROR') return error.message;
  if (!isServerError(error)) return fallback === MESSAGE_TEXTS.sendFailed ? MESSAGE_TEXTS.noResponse : fallback;
  return fallback;
}
