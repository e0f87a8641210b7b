import type { ExternalToast } from 'sonner';
import { LIMITS } from '../../common/limits';
import type { ToastText } from '../../common/texts';

/**
 * Toasts take the spec's {title, description} pairs. Durations: 3 s unless told (spec: 2-3 s;
 * the session-expired toast is 5 s). Sonner announces them through its aria-live region.
 *
 * Sonner is not part of the app's start (issue 50 item 1: its module inserts its styles when it
 * loads, in the entry's long task): the toaster (components/app-toaster.tsx) mounts when the
 * browser is first idle after the page's start, or at the first toast, whichever comes first. A
 * toast asked for before then is shown once the toaster has mounted (sonner's toaster only shows
 * toasts added after it listens).
 */
interface NotifyOptions {
  duration?: number;
  id?: string | number;
}

type Sonner = typeof import('sonner');
let sonner: Promise<Sonner> | null = null;
let loaded: Sonner | null = null;
/** sonner's module, loaded once (the toaster's component and `toast` come from it) */
export const loadSonner = (): Promise<Sonner> =>
  (sonner ??= import('sonner').then(
    (module) => (loaded = module),
    (error: unknown) => {
      sonner = null; // a failed chunk load (offline, a new deploy): the next toast tries again
      throw error;
    },
  ));
/** sonner's module if it has loaded (a toaster mounted again, e.g. after the root's pending screen, shows at once) */
export const loadedSonner = (): Sonner | null => loaded;

let mountToaster: (() => void) | null = null;
let toasterMounted: () => void = () => {};
const mounted = new Promise<void>((resolve) => {
  toasterMounted = resolve;
});

/** The app's toaster hands over how it is mounted; it says when it listens with `toasterListening`. */
export function onToasterWanted(mount: () => void): () => void {
  mountToaster = mount;
  return () => {
    if (mountToaster === mount) mountToaster = null;
  };
}

export function toasterListening(): void {
  toasterMounted();
}

function show(add: (toast: Sonner['toast']) => unknown): void {
  mountToaster?.();
  void Promise.all([loadSonner(), mounted]).then(
    ([{ toast }]) => add(toast),
    (error: unknown) => console.error('A notification could not be shown', error),
  );
}

function options(text: ToastText, opts?: NotifyOptions): ExternalToast {
  return { description: text.description, duration: opts?.duration ?? LIMITS.toastMs, id: opts?.id };
}

const RATE_LIMITED_TOAST_ID = 'too-many-requests';
/** until when the 'Too many requests' toast is on screen */
let rateLimitedUntil = 0;

export const notify = {
  success: (text: ToastText, opts?: NotifyOptions) => show((toast) => toast.success(text.title, options(text, opts))),
  // While the 'Too many requests' toast shows, a screen's own failure toast for the same refusal
  // ('Failed to add comment') would only repeat it less clearly.
  error: (text: ToastText, opts?: NotifyOptions) => {
    if (Date.now() < rateLimitedUntil) return;
    show((toast) => toast.error(text.title, options(text, opts)));
  },
  /** A write refused over its budget (429, lib/trpc.ts): one toast however many calls were refused at once. */
  rateLimited: (message: string) => {
    rateLimitedUntil = Date.now() + LIMITS.toastMs;
    show((toast) => toast.error('Error', { description: message, duration: LIMITS.toastMs, id: RATE_LIMITED_TOAST_ID }));
  },
  info: (text: ToastText, opts?: NotifyOptions) => show((toast) => toast.info(text.title, options(text, opts))),
  warning: (text: ToastText, opts?: NotifyOptions) => show((toast) => toast.warning(text.title, options(text, opts))),
};

/** Several validation messages under one title, one per line. */
export function joinMessages(messages: readonly string[]): string {
  return messages.join('\n');
}
