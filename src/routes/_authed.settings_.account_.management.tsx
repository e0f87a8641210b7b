import { createFileRoute } from '@tanstack/react-router';
import { ACCOUNT_TEXTS } from '../../common/security';
import { AccountManagement } from '../features/security/account-management';
import { SettingsPage } from '../features/settings/settings-page';

/**
 * /settings/account/management (spec part 2 §2): 'Account Settings' with Hide Account, Delete All
 * Data and Delete Account (and Download my data); Back goes to /settings. The `_authed` gate sends
 * visitors to /auth; after deletion the screen goes to /.
 */
export const Route = createFileRoute('/_authed/settings_/account_/management')({
  loader: ({ context }) => {
    void context.trpcUtils.account.management.prefetch();
  },
  component: () => (
    <SettingsPage title={ACCOUNT_TEXTS.pageTitle} description="Hide your account, download your data, or delete it." back="/settings">
      <AccountManagement />
    </SettingsPage>
  ),
});
