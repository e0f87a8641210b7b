import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { ACCOUNT_TEXTS } from '../../common/security';
import { buttonClasses } from '../components/ui/button';
import { AccountManagement } from '../features/security/account-management';
import { usePageTitle } from '../lib/page-title';

/**
 * /settings/account/management (spec part 2 §2): 'Account Settings' with Hide Account, Delete All
 * Data and Delete Account (and Download my data); Back goes to /settings. The `_authed` gate sends
 * visitors to /auth; after deletion the screen goes to /.
 */
export const Route = createFileRoute('/_authed/settings_/account_/management')({
  loader: ({ context }) => {
    void context.trpcUtils.account.management.prefetch();
  },
  component: ManagementPage,
});

function ManagementPage() {
  usePageTitle(ACCOUNT_TEXTS.pageTitle);
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      <Link to="/settings" className={buttonClasses({ variant: 'ghost', size: 'sm', className: '-ml-2 mb-4' })}>
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back
      </Link>
      <h1 className="text-3xl font-bold tracking-tight">{ACCOUNT_TEXTS.pageTitle}</h1>
      <p className="mt-1 mb-8 text-muted">Hide your account, download your data, or delete it.</p>
      <AccountManagement />
    </div>
  );
}
