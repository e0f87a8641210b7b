import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { AlertTriangle } from 'lucide-react';
import { useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';
import { DIALOG_BOX_CLASS, DialogActions, DialogHeading, DialogOverlay } from './dialog-parts';

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
        <DialogOverlay />
        <AlertDialog.Content
          className={cn(DIALOG_BOX_CLASS, 'flex flex-col gap-5')}
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
          <DialogHeading icon={AlertTriangle} title={title} description={description} />
          {children}
          <DialogActions pending={pending} cancelLabel={cancelLabel}>
            {/* Not AlertDialog.Action: that would close the dialog before the action has run. */}
            <Button variant="danger" loading={pending} onClick={() => void confirm()}>
              {confirmLabel}
            </Button>
          </DialogActions>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
