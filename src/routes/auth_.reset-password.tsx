import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/auth-layout';
import { ResetPasswordForm } from '../features/auth/reset-password-form';
import { usePageTitle } from '../lib/page-title';
import { searchValidator, stringParam } from '../lib/search-params';

export const Route = createFileRoute('/auth_/reset-password')({
  validateSearch: searchValidator<{ token?: string }>({ token: stringParam() }),
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const { token } = Route.useSearch();
  return (
    <AuthLayout title="Choose a new password" description="Signing in again will be needed on every device.">
      <ResetPasswordForm token={token} />
    </AuthLayout>
  );
}
