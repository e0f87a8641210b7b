import { useEffect } from 'react';
import { ConfirmIdentityInput } from '../../../common/security';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { useZodForm } from '../../lib/use-zod-form';

export type IdentityForm = ReturnType<typeof useIdentityForm>;

/** The password again, and a code when two-factor is on: what the server asks before deleting. */
export function useIdentityForm() {
  return useZodForm(ConfirmIdentityInput, { defaultValues: { password: '', code: undefined } });
}

/**
 * Reads the fields through the shared schema; null (the messages shown beside the fields) when
 * they are refused. For dialogs whose confirm button sits outside a <form>.
 */
export function readIdentity(form: IdentityForm): Promise<ConfirmIdentityInput | null> {
  return new Promise((resolve) => {
    void form.submit((values) => resolve(values))().then(() => resolve(null));
  });
}

export function IdentityFields({ form, withCode, open }: { form: IdentityForm; withCode: boolean; open: boolean }) {
  useEffect(() => {
    if (!open) form.reset({ password: '', code: undefined });
  }, [open, form]);
  return (
    <div className="flex flex-col gap-4">
      <FormField label="Your password" error={form.error('password')}>
        {(field) => <Input {...field} {...form.field('password')} type="password" autoComplete="current-password" autoFocus />}
      </FormField>
      {withCode ? (
        <FormField label="Two-factor code" hint="From your authenticator app, or a recovery code." error={form.error('code')}>
          {(field) => (
            <Input
              {...field}
              {...form.field('code', { setValueAs: (v: string) => (v.trim() === '' ? undefined : v) })}
              autoComplete="one-time-code"
              placeholder="123456"
              className="font-mono tracking-widest"
            />
          )}
        </FormField>
      ) : null}
    </div>
  );
}
