import * as AlertDialog from '@radix-ui/react-alert-dialog';
import type { LucideIcon } from 'lucide-react';
import type { FormEvent, ReactElement, ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { Button } from './button';

/** The dimmed page behind every dialog. */
export function DialogOverlay() {
  return <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />;
}

/** The dialog's box, centred, as wide as a phone allows up to 28 rem; `className` adds its layout. */
export const DIALOG_BOX_CLASS =
  'fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-card border border-border bg-surface-raised p-5 shadow-2xl shadow-black/60 md:p-6';

const TONES = {
  danger: 'bg-rose-500/15 text-rose-300 ring-rose-400/30',
  accent: 'bg-violet-500/15 text-violet-300 ring-violet-400/30',
};

/**
 * A dialog's heading: its sign in a round badge (red for what cannot be undone, violet for a
 * purchase), the title and the description Radix announces with it.
 */
export function DialogHeading({ icon: Icon, tone = 'danger', title, description }: { icon: LucideIcon; tone?: keyof typeof TONES; title: ReactNode; description: ReactNode }) {
  return (
    <div className="flex gap-4">
      <span className={cn('flex size-10 shrink-0 items-center justify-center rounded-full ring-1', TONES[tone])}>
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <div className="flex min-w-0 flex-col gap-1.5">
        <AlertDialog.Title className="text-lg font-semibold tracking-tight break-words text-foreground">{title}</AlertDialog.Title>
        <AlertDialog.Description className="text-sm leading-relaxed break-words text-muted">{description}</AlertDialog.Description>
      </div>
    </div>
  );
}

/**
 * A dialog's buttons: Cancel first in the focus order (Enter alone never confirms), disabled while
 * the action runs, then the dialog's own action (`children`); on a phone the action stands on top.
 */
export function DialogActions({ pending = false, cancelLabel = 'Cancel', children }: { pending?: boolean; cancelLabel?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
      <AlertDialog.Cancel asChild>
        <Button variant="secondary" disabled={pending}>
          {cancelLabel}
        </Button>
      </AlertDialog.Cancel>
      {children}
    </div>
  );
}

interface FormDialogProps {
  open: boolean;
  /** told of every open and close, except while the form is being sent (the dialog stays open then) */
  onOpenChange: (open: boolean) => void;
  /** the button that opens it, when the dialog has one of its own */
  trigger?: ReactElement;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  /** the form is being sent: both buttons wait, Escape and Cancel do nothing */
  pending: boolean;
  icon: LucideIcon;
  title: ReactNode;
  description: ReactNode;
  /** the red submit button's words */
  submitLabel: ReactNode;
  /** the form's fields */
  children: ReactNode;
}

/**
 * A destructive action that needs a few fields first (a report's reason, a refund's amount): the
 * dialog's heading, the fields, Cancel and the red submit button, as one form that stays open with
 * its errors beside the fields until the action has succeeded.
 */
export function FormDialog({ open, onOpenChange, trigger, onSubmit, pending, icon, title, description, submitLabel, children }: FormDialogProps) {
  return (
    <AlertDialog.Root open={open} onOpenChange={(next) => (pending ? undefined : onOpenChange(next))}>
      {trigger ? <AlertDialog.Trigger asChild>{trigger}</AlertDialog.Trigger> : null}
      <AlertDialog.Portal>
        <DialogOverlay />
        <AlertDialog.Content className={DIALOG_BOX_CLASS}>
          <form noValidate className="flex flex-col gap-5" onSubmit={onSubmit}>
            <DialogHeading icon={icon} title={title} description={description} />
            {children}
            <DialogActions pending={pending}>
              <Button type="submit" variant="danger" loading={pending}>
                {submitLabel}
              </Button>
            </DialogActions>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
