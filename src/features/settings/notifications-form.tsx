import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/ui/button';
import type { NotificationSettingsDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Loaded } from '../../components/load-states';
import { isServerError, trpc } from '../../lib/trpc';
import { SettingsForm } from './settings-form';
import { ToggleRows, type ToggleSpec } from './toggle-row';
import { pushSupported, subscribeThisBrowser, thisBrowserSubscribed, unsubscribeThisBrowser } from '../../lib/web-push';
import { notify } from '../../lib/toast';

/**
 * /settings/account/notifications (spec part 2 §2, §3, §8): three switches, all on by default;
 * each switch saves as it is flipped (issue 47: leaving the page lost the change), as Save Changes
 * (Saving...) does → 'Notification settings saved successfully.'. The mail senders ask
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

/** one toast for the form's saves: flipping three switches shows one 'saved', not three */
const SAVED_TOAST = 'notification-settings-saved';

const SWITCHES = [
  { key: 'emailNotifications', label: SETTINGS_TEXTS.emailNotifications, hint: SETTINGS_TEXTS.emailNotificationsHint },
  { key: 'pushNotifications', label: SETTINGS_TEXTS.pushNotifications, hint: SETTINGS_TEXTS.pushNotificationsHint },
  { key: 'marketingEmails', label: SETTINGS_TEXTS.marketingEmails, hint: SETTINGS_TEXTS.marketingEmailsHint },
] as const satisfies readonly ToggleSpec<keyof NotificationSettingsDto>[];

function NotificationFields({ initial }: { initial: NotificationSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.saveNotifications.useMutation();
  const subscribePush = trpc.notifications.subscribePush.useMutation();
  const unsubscribePush = trpc.notifications.unsubscribePush.useMutation();
  const [values, setValues] = useState(initial);
  // Push is on for the account by default, yet a browser gets pushes only once it subscribed:
  // false shows 'Turn on for this browser' under the switches
  const [here, setHere] = useState<boolean | null>(null);
  const [subscribing, setSubscribing] = useState(false);
  useEffect(() => {
    void thisBrowserSubscribed().then(setHere, () => setHere(false));
  }, []);

  /** Push Notifications on subscribes this browser (several browsers per user); off unsubscribes it. */
  async function syncThisBrowser(on: boolean) {
    if (on) {
      const { publicKey } = await utils.notifications.pushKey.fetch();
      if (!publicKey) throw new Error('Push notifications are not available on this server.');
      await subscribePush.mutateAsync(await subscribeThisBrowser(publicKey));
      setHere(true);
    } else {
      const endpoint = await unsubscribeThisBrowser();
      if (endpoint) await unsubscribePush.mutateAsync({ endpoint });
      setHere(false);
    }
  }

  // what the server holds: a Push change asks the browser only when it differs from this
  const saved = useRef(initial);
  // saves one after another, in the order of the flips: the last flip is what stays
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const failedText = (error: unknown) => (isServerError(error) ? SETTINGS_TEXTS.notificationsSaveFailed : SETTINGS_TEXTS.notificationsUnexpected);

  async function persist(next: NotificationSettingsDto) {
    let toSave = next;
    // only a change asks the browser (saving the other switches never brings a permission prompt)
    if (next.pushNotifications !== saved.current.pushNotifications) {
      try {
        await syncThisBrowser(next.pushNotifications);
      } catch (error) {
        // this browser could not subscribe: Push stays off rather than claiming to be on
        notify.error({ title: 'Push Notifications', description: error instanceof Error ? error.message : String(error) });
        if (next.pushNotifications) toSave = { ...next, pushNotifications: false };
        setValues(toSave);
      }
    }
    const result = await save.mutateAsync(toSave);
    saved.current = result.settings;
    utils.settings.notifications.setData(undefined, result.settings);
    return result;
  }
  const enqueue = (next: NotificationSettingsDto) => {
    const run = queue.current.catch(() => undefined).then(() => persist(next));
    queue.current = run;
    return run;
  };

  return (
    <SettingsForm
      label={SETTINGS_TEXTS.notifications}
      pending={save.isPending}
      failed={failedText}
      toastId={SAVED_TOAST}
      onSave={() => enqueue(values)}
    >
      <ToggleRows
        rows={SWITCHES}
        values={values}
        onChange={(key, on) => {
          const next = { ...values, [key]: on };
          setValues(next);
          enqueue(next).then(
            (result) => notify.success({ title: result.message }, { id: SAVED_TOAST }),
            (error: unknown) => notify.error({ title: 'Error', description: failedText(error) }, { id: SAVED_TOAST }),
          );
        }}
      />
      {initial.pushNotifications && values.pushNotifications && here === false && pushSupported() ? (
        <div className="flex flex-wrap items-center justify-between gap-3 rounded-card border border-border bg-surface px-4 py-3" data-testid="push-this-browser">
          <p className="text-sm text-muted">Push notifications are on for your account but not yet on this browser.</p>
          <Button
            type="button"
            variant="secondary"
            disabled={subscribing}
            aria-busy={subscribing || undefined}
            onClick={() => {
              setSubscribing(true);
              syncThisBrowser(true)
                .then(() => notify.success({ title: 'Push notifications are on for this browser' }))
                .catch((error: unknown) => notify.error({ title: 'Push Notifications', description: error instanceof Error ? error.message : String(error) }))
                .finally(() => setSubscribing(false));
            }}
          >
            Turn on for this browser
          </Button>
        </div>
      ) : null}
      <p className="text-sm text-subtle">Security e-mail (confirming your address, password resets, new sign-ins) is always sent.</p>
    </SettingsForm>
  );
}
