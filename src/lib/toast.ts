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

export const notify = {
  success: (text: ToastText, opts?: NotifyOptions) => toast.success(text.title, options(text, opts)),
  error: (text: ToastText, opts?: NotifyOptions) => toast.error(text.title, options(text, opts)),
  info: (text: ToastText, opts?: NotifyOptions) => toast.info(text.title, options(text, opts)),
  warning: (text: ToastText, opts?: NotifyOptions) => toast.warning(text.title, options(text, opts)),
};

/** Several validation messages under one title, one per line. */
export function joinMessages(messages: readonly string[]): string {
  return messages.join('\n');
}
