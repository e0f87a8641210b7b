import { createFileRoute } from '@tanstack/react-router';
import { AuthLayout } from '../features/auth/auth-layout';
import { ConfirmEmailStatus } from '../features/auth/confirm-email-status';
import { usePageTitle } from '../lib/page-title';
import { searchValidator, stringParam } from '../lib/search-params';

// `auth_` keeps /auth/confirm out of the /auth route (its tabs and its signed-in redirect).
export const Route = createFileRoute('/auth_/confirm')({
  validateSearch: searchValidator<{ token?: string }>({ token: stringParam() }),
  component: ConfirmEmailPage,
});

function ConfirmEmailPage() {
  usePageTitle('Confirm email');
  const { token } = Route.useSearch();
  return (
    <AuthLayout title="Confirm your email">
      <ConfirmEmailStatus token={token} />
    </AuthLayout>
  );
}
