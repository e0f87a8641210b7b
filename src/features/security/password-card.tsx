import { ChangePasswordInput, SECURITY_TEXTS } from '../../../common/security';
import { Button } from '../../components/ui/button';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { useZodForm } from '../../lib/use-zod-form';
import { Section } from './section';

/** Change password: the current one is required; the server signs out every other session. */
export function PasswordCard() {
  const utils = trpc.useUtils();
  const form = useZodForm(ChangePasswordInput, { defaultValues: { currentPassword: '', newPassword: '' } });
  const change = trpc.security.changePassword.useMutation({
    onSuccess: () => {
      form.reset();
      void utils.security.sessions.invalidate();
      notify.success(SECURITY_TEXTS.passwordChanged);
    },
    onError: (error) => {
      const validation = form.showServerErrors(error);
      notify.error({ title: 'Error', description: validation?.messages[0] ?? ((isClientError(error) && error.message) || 'Failed to change password') });
    },
  });
  return (
    <Section id="password-heading" title="Password" description="Changing it signs you out everywhere else.">
      <form noValidate onSubmit={form.submit((values) => change.mutate(values))} className="flex flex-col gap-4" aria-label="Change password">
        <FormField label="Current password" error={form.error('currentPassword')}>
          {(field) => <Input {...field} {...form.field('currentPassword')} type="password" autoComplete="current-password" />}
        </FormField>
        <FormField label="New password" error={form.error('newPassword')}>
          {(field) => <Input {...field} {...form.field('newPassword')} type="password" autoComplete="new-password" />}
        </FormField>
        <div>
          <Button type="submit" loading={change.isPending}>
            Change password
          </Button>
        </div>
      </form>
    </Section>
  );
}
