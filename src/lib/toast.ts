import { toast } from 'sonner';
import { LIMITS } from '../../common/limits';
import type { ToastText } from '../../common/texts';

/**
 * Toasts take the spec's {title, description} pairs. Durations: 3 s unless told (spec: 2-3 s;
 * the session-expired toast is 5 s). Sonner announces them through its aria-live region.
 */
interface NotifyOptions {
  duration?: number;
  id?: string | number;
}

function options(text: ToastText, opts?: NotifyOptions) {
  return { description: text.description, duration: opts?.duration ?? LIMITS.toastMs, id: opts?.id };
}

const RATE_LIMITED_TOAST_ID = 'too-many-requests';
/** until when the 'Too many requests' toast is on screen */
let rateLimitedUntil = 0;

export const notify = {
  success: (text: ToastText, opts?: NotifyOptions) => toast.success(text.title, options(text, opts)),
  // While the 'Too many requests' toast shows, a screen's own failure toast for the same refusal
  // ('Failed to add comment') would only repeat it less clearly.
  error: (text: ToastText, opts?: NotifyOptions) => (Date.now() < rateLimitedUntil ? RATE_LIMITED_TOAST_ID : toast.error(text.title, options(text, opts))),
  /** A write refused over its budget (429, lib/trpc.ts): one toast however many calls were refused at once. */
  rateLimited: (message: string) => {
    rateLimitedUntil = Date.now() + LIMITS.toastMs;
    return toast.error('Error', { description: message, duration: LIMITS.toastMs, id: RATE_LIMITED_TOAST_ID });
  },
  info: (text: ToastText, opts?: NotifyOptions) => toast.info(text.title, options(text, opts)),
  warning: (text: ToastText, opts?: NotifyOptions) => toast.warning(text.title, options(text, opts)),
};

/** Several validation messages under one title, one per line. */
export function joinMessages(messages: readonly string[]): string {
  return messages.join('\n');
}
