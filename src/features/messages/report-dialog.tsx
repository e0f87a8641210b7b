import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { Flag } from 'lucide-react';
import { z } from 'zod';
import { REPORT_REASON_MAX_LENGTH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { useZodForm } from '../../lib/use-zod-form';

const ReportForm = z.object({
  reason: z.string().trim().min(1, MESSAGE_TEXTS.reportReasonRequired).max(REPORT_REASON_MAX_LENGTH),
});

/** 'Report' on a partner's message (issue 12 §6): why, in a few words; admins see it in /admin/reports. */
export function ReportDialog({ open, onOpenChange, onSubmit }: { open: boolean; onOpenChange: (open: boolean) => void; onSubmit: (reason: string) => Promise<boolean> }) {
  const form = useZodForm(ReportForm, { defaultValues: { reason: '' } });
  const pending = form.formState.isSubmitting;

  return (
    <AlertDialog.Root
      open={open}
      onOpenChange={(next) => {
        if (pending) return;
        if (!next) form.reset();
        onOpenChange(next);
      }}
    >
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="fixed inset-0 z-50 bg-black/70 backdrop-blur-sm" />
        <AlertDialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-card border border-border bg-surface-raised p-5 shadow-2xl shadow-black/60 md:p-6">
          <form
            noValidate
            className="flex flex-col gap-4"
            onSubmit={form.submit(async ({ reason }) => {
              if (await onSubmit(reason)) {
                form.reset();
                onOpenChange(false);
              }
            })}
          >
            <div className="flex gap-3">
              <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-rose-500/15 text-rose-300 ring-1 ring-rose-400/30">
                <Flag aria-hidden="true" className="size-5" />
              </span>
              <div className="flex flex-col gap-1">
                <AlertDialog.Title className="text-lg font-semibold tracking-tight">Report message</AlertDialog.Title>
                <AlertDialog.Description className="text-sm text-muted">Tell our team what is wrong with this message. They will review it.</AlertDialog.Description>
              </div>
            </div>
            <FormField label="Reason" error={form.error('reason')}>
              {({ invalid: _invalid, ...props }) => (
                <textarea
                  {...props}
                  {...form.field('reason')}
                  rows={3}
                  maxLength={REPORT_REASON_MAX_LENGTH}
                  className="w-full resize-none rounded-xl border border-border bg-surface px-3.5 py-2.5 text-sm text-foreground outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40"
                />
              )}
            </FormField>
            <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
              <AlertDialog.Cancel asChild>
                <Button variant="secondary" disabled={pending}>
                  Cancel
                </Button>
              </AlertDialog.Cancel>
              <Button type="submit" variant="danger" loading={pending}>
                Report
              </Button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
