import { useState } from 'react';
import type { NotificationSettingsDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/texts';
import { Loaded } from '../../components/load-states';
import { isServerError, trpc } from '../../lib/trpc';
import { SettingsForm } from './settings-form';
import { ToggleRows, type ToggleSpec } from './toggle-row';

/**
 * /settings/account/notifications (spec part 2 §2, §3, §8): three switches, all on by default;
 * Save Changes (Saving...) → 'Notification settings saved successfully.'. The mail senders ask
 * domain/notifications/email-consent.ts, so what is saved here is honoured by the next e-mail.
 */
export function NotificationsForm() {
  const settings = trpc.settings.notifications.useQuery(undefined, { retry: 1 });
  return (
    <Loaded
      query={settings}
      loading="Loading notification settings"
      failed={SETTINGS_TEXTS.notificationsLoadFailed}
      toastId="notifications-load"
    >
      {(data) => <NotificationFields initial={data} />}
    </Loaded>
  );
}

const SWITCHES = [
  { key: 'emailNotifications', label: SETTINGS_TEXTS.emailNotifications, hint: SETTINGS_TEXTS.emailNotificationsHint },
  { key: 'pushNotifications', label: SETTINGS_TEXTS.pushNotifications, hint: SETTINGS_TEXTS.pushNotificationsHint },
  { key: 'marketingEmails', label: SETTINGS_TEXTS.marketingEmails, hint: SETTINGS_TEXTS.marketingEmailsHint },
] as const satisfies readonly ToggleSpec<keyof NotificationSettingsDto>[];

function NotificationFields({ initial }: { initial: NotificationSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.saveNotifications.useMutation();
  const [values, setValues] = useState(initial);

  return (
    <SettingsForm
      label={SETTINGS_TEXTS.notifications}
      pending={save.isPending}
      failed={(error) => (isServerError(error) ? SETTINGS_TEXTS.notificationsSaveFailed : SETTINGS_TEXTS.notificationsUnexpected)}
      onSave={async () => {
        const result = await save.mutateAsync(values);
        utils.settings.notifications.setData(undefined, result.settings);
        return result;
      }}
    >
      <ToggleRows rows={SWITCHES} values={values} onChange={(key, on) => setValues((v) => ({ ...v, [key]: on }))} />
      <p className="text-sm text-subtle">Security e-mail (confirming your address, password resets, new sign-ins) is always sent.</p>
    </SettingsForm>
  );
}
