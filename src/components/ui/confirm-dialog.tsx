import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { AlertTriangle } from 'lucide-react';
import { useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { Button } from './button';

interface ConfirmDialogProps {
  /** the question, e.g. 'Delete this post?' */
  title: string;
  /** what will be lost, by name */
  description: ReactNode;
  /** the red button's words, e.g. 'Delete post' */
  confirmLabel: string;
  cancelLabel?: string;
  /** Runs on confirm; the dialog stays open, its buttons disabled, until it settles, then closes. */
  onConfirm: () => Promise<unknown> | void;
  /** The button that opens the dialog; focus goes back to it on close. */
  trigger?: ReactElement;
  /** Or open it from elsewhere (a menu item): controlled, with where focus goes back on close. */
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  returnFocusRef?: RefObject<HTMLElement | null>;
  /** Fields the action needs (e.g. the password again), shown under the description. */
  children?: ReactNode;
}

/**
 * The one confirmation before anything is destroyed (Radix AlertDialog): a title, what will be
 * lost, Cancel (focused first, so Enter alone never destroys) and a red confirm button that shows
 * a spinner while the action runs. Focus is trapped inside and returns to the trigger; Escape and
 * Cancel close it without doing anything, except while the action is under way.
 */
export function ConfirmDialog({
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  trigger,
  open: openProp,
  onOpenChange,
  returnFocusRef,
  children,
}: ConfirmDialogProps) {
  const [openState, setOpenState] = useState(false);
  const [pending, setPending] = useState(false);
  const open = openProp ?? openState;

  const setOpen = (next: boolean) => {
    if (!next && pending) return;
    setOpenState(next);
    onOpenChange?.(next);
  };

  const confirm = async () => {
    setPending(true);
    try {
      await onConfirm();
    } finally {
      setPending(false);
      setOpenState(false);
      onOpenChange?.(false);
    }
  };

  return (
    <AlertDialog.Root open={open} onOpenChange={setOpen}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <AlertDialog.Content
          className="fixed top-1/2 left-1/2 z-50 flex w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 flex-col gap-5 rounded-card border border-border bg-surface-raised p-5 shadow-2xl shadow-black/60 md:p-6"
          onEscapeKeyDown={(event) => {
            if (pending) event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            // Opened from a menu, there is no trigger of ours to go back to: the caller names one.
            if (!returnFocusRef) return;
            event.preventDefault();
            const target = returnFocusRef.current;
            if (target?.isConnected) target.focus();
          }}
        >
          <div className="flex gap-4">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-rose-500/15 text-rose-300 ring-1 ring-rose-400/30">
              <AlertTriangle aria-hidden="true" className="size-5" />
            </span>
            <div className="flex min-w-0 flex-col gap-1.5">
              <AlertDialog.Title className="text-lg font-semibold tracking-tight text-foreground">{title}</AlertDialog.Title>
              <AlertDialog.Description className="text-sm leading-relaxed break-words text-muted">{description}</AlertDialog.Description>
            </div>
          </div>
          {children}
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <AlertDialog.Cancel asChild>
              <Button variant="secondary" disabled={pending}>
                {cancelLabel}
              </Button>
            </AlertDialog.Cancel>
            {/* Not AlertDialog.Action: that would close the dialog before the action has run. */}
            <Button variant="danger" loading={pending} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </div>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
