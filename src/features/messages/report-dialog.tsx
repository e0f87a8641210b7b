import { Flag } from 'lucide-react';
import { z } from 'zod';
import { REPORT_REASON_MAX_LENGTH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { FormDialog } from '../../components/ui/dialog-parts';
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
    <FormDialog
      open={open}
      onOpenChange={(next) => {
        if (!next) form.reset();
        onOpenChange(next);
      }}
      onSubmit={form.submit(async ({ reason }) => {
        if (await onSubmit(reason)) {
          form.reset();
          onOpenChange(false);
        }
      })}
      pending={pending}
      icon={Flag}
      title="Report message"
      description="Tell our team what is wrong with this message. They will review it."
      submitLabel="Report"
    >
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
    </FormDialog>
  );
}
