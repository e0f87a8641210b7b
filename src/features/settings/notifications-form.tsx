import { useEffect, useState } from 'react';
import type { NotificationSettingsDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/texts';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';
import { isServerError, trpc } from '../../lib/trpc';
import { SettingsLoadError, SettingsSkeleton } from './load-states';
import { ToggleRow } from './toggle-row';

/**
 * /settings/account/notifications (spec part 2 §2, §3, §8): three switches, all on by default;
 * Save Changes (Saving...) → 'Notification settings saved successfully.'. The mail senders ask
 * domain/notifications/email-consent.ts, so what is saved here is honoured by the next e-mail.
 */
export function NotificationsForm() {
  const settings = trpc.settings.notifications.useQuery(undefined, { retry: 1 });
  useEffect(() => {
    if (settings.isError) notify.error({ title: 'Error', description: SETTINGS_TEXTS.notificationsLoadFailed }, { id: 'notifications-load' });
  }, [settings.isError]);
  if (settings.isError && !settings.data) {
    return <SettingsLoadError message={SETTINGS_TEXTS.notificationsLoadFailed} onRetry={() => void settings.refetch()} />;
  }
  if (!settings.data) return <SettingsSkeleton label="Loading notification settings" />;
  return <NotificationFields initial={settings.data} />;
}

function NotificationFields({ initial }: { initial: NotificationSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.saveNotifications.useMutation();
  const [values, setValues] = useState(initial);

  const onSave = async () => {
    try {
      const result = await save.mutateAsync(values);
      utils.settings.notifications.setData(undefined, result.settings);
      notify.success({ title: result.message });
    } catch (error) {
      notify.error({ title: 'Error', description: isServerError(error) ? SETTINGS_TEXTS.notificationsSaveFailed : SETTINGS_TEXTS.notificationsUnexpected });
    }
  };

  return (
    <form
      aria-label={SETTINGS_TEXTS.notifications}
      className="flex flex-col gap-6"
      onSubmit={(event) => {
        event.preventDefault();
        void onSave();
      }}
    >
      <div className="divide-y divide-border rounded-card border border-border bg-surface">
        <ToggleRow
          label={SETTINGS_TEXTS.emailNotifications}
          hint={SETTINGS_TEXTS.emailNotificationsHint}
          checked={values.emailNotifications}
          onChange={(on) => setValues((v) => ({ ...v, emailNotifications: on }))}
        />
        <ToggleRow
          label={SETTINGS_TEXTS.pushNotifications}
          hint={SETTINGS_TEXTS.pushNotificationsHint}
          checked={values.pushNotifications}
          onChange={(on) => setValues((v) => ({ ...v, pushNotifications: on }))}
        />
        <ToggleRow
          label={SETTINGS_TEXTS.marketingEmails}
          hint={SETTINGS_TEXTS.marketingEmailsHint}
          checked={values.marketingEmails}
          onChange={(on) => setValues((v) => ({ ...v, marketingEmails: on }))}
        />
      </div>
      <p className="text-sm text-subtle">Security e-mail (confirming your address, password resets, new sign-ins) is always sent.</p>
      <div className="flex justify-end">
        <Button type="submit" size="lg" disabled={save.isPending} aria-busy={save.isPending || undefined}>
          {save.isPending ? SETTINGS_TEXTS.saving : SETTINGS_TEXTS.saveChanges}
        </Button>
      </div>
    </form>
  );
}
