import { createFileRoute } from '@tanstack/react-router';
import { z } from 'zod';
import { AuthLayout } from '../features/auth/auth-layout';
import { ResetPasswordForm } from '../features/auth/reset-password-form';
import { usePageTitle } from '../lib/page-title';

export const Route = createFileRoute('/auth_/reset-password')({
  validateSearch: z.object({ token: z.string().optional().catch(undefined) }),
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
