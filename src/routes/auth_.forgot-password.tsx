import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/auth-layout';
import { ForgotPasswordForm } from '../features/auth/forgot-password-form';
import { usePageTitle } from '../lib/page-title';

export const Route = createFileRoute('/auth_/forgot-password')({
  component: ForgotPasswordPage,
});

function ForgotPasswordPage() {
  usePageTitle('Forgot password');
  return (
    <AuthLayout title="Forgot your password?" description="Enter your email and we will send you a link to choose a new one.">
      <ForgotPasswordForm />
    </AuthLayout>
  );
}
