import { createFileRoute } from '@tanstack/react-router';
import { NotificationMatrix } from '../features/notifications/notification-matrix';
import { NotificationsForm } from '../features/settings/notifications-form';
import { useMe } from '../lib/session';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/account/notifications (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/account_/notifications')({
  component: NotificationSettingsScreen,
});

function NotificationSettingsScreen() {
  const me = useMe();
  return (
    <SettingsPage title="Notification Settings" description="Choose how we keep you informed." back="/settings/account">
      <NotificationsForm />
      <NotificationMatrix isCreator={Boolean(me.data?.isCreator)} />
    </SettingsPage>
  );
}
