import { useState } from 'react';
import { PRIVACY_VISIBILITIES, type PrivacySettingsDto, type SavePrivacyInput } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Loaded } from '../../components/load-states';
import { cn } from '../../lib/cn';
import { trpc } from '../../lib/trpc';
import { SettingsForm } from './settings-form';
import { ToggleRows, type ToggleSpec } from './toggle-row';

const VISIBILITY_TEXT: Record<(typeof PRIVACY_VISIBILITIES)[number], { label: string; hint: string }> = {
  public: { label: 'Public', hint: 'Everyone can see your profile and posts, and you can be featured and found in Explore.' },
  private: { label: 'Private', hint: 'Only you can see your profile and posts. Everyone else is told the profile was not found.' },
  friends: { label: 'Friends', hint: SETTINGS_TEXTS.friendsExplained },
};

/**
 * /settings/account/privacy (spec part 2 §2, §3, §4, §8, §9): profile visibility (public,
 * private, friends), show online status, allow friend requests; 'Privacy settings saved
 * successfully.'. The server creates a missing row with the defaults when it is loaded.
 */
export function PrivacyForm() {
  const settings = trpc.settings.privacy.useQuery(undefined, { retry: 1 });
  return (
    <Loaded query={settings} loading="Loading privacy settings" failed={SETTINGS_TEXTS.privacyLoadFailed} toastId="privacy-load">
      {(data) => <PrivacyFields initial={data} />}
    </Loaded>
  );
}

const SWITCHES = [
  { key: 'showOnlineStatus', label: 'Show online status', hint: 'Let people you message see when you are online.' },
  { key: 'allowFriendRequests', label: 'Allow friend requests', hint: 'Kept for when friend requests arrive; nothing uses it yet.' },
] as const satisfies readonly ToggleSpec<keyof SavePrivacyInput>[];

function PrivacyFields({ initial }: { initial: PrivacySettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.savePrivacy.useMutation();
  const hidden = initial.profileVisibility === 'hidden';
  const [values, setValues] = useState<SavePrivacyInput>({
    profileVisibility: initial.profileVisibility === 'hidden' ? 'public' : initial.profileVisibility,
    showOnlineStatus: initial.showOnlineStatus,
    allowFriendRequests: initial.allowFriendRequests,
  });

  return (
    <SettingsForm
      label={SETTINGS_TEXTS.privacy}
      pending={save.isPending}
      failed={SETTINGS_TEXTS.privacySaveFailed}
      onSave={async () => {
        const result = await save.mutateAsync(values);
        utils.settings.privacy.setData(undefined, result.settings);
        // what others (and this user) may see changed: profiles and lists are read again
        void utils.profiles.invalidate();
        return result;
      }}
    >
      {hidden ? (
        <p role="status" className="rounded-card border border-amber-400/30 bg-amber-400/10 px-4 py-3 text-sm text-amber-200">
          Your account is hidden (Account Management). Nobody else can see it until you make it visible again; the choice below applies then.
        </p>
      ) : null}
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 font-medium text-foreground">Profile visibility</legend>
        {PRIVACY_VISIBILITIES.map((visibility) => {
          const checked = values.profileVisibility === visibility;
          return (
            <label
              key={visibility}
              className={cn(
                'flex cursor-pointer items-start gap-3 rounded-card border px-4 py-3 transition-colors',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-accent',
                checked ? 'border-accent bg-accent-soft' : 'border-border bg-surface hover:border-border-strong',
              )}
            >
              <input
                type="radio"
                name="profileVisibility"
                value={visibility}
                checked={checked}
                onChange={() => setValues((v) => ({ ...v, profileVisibility: visibility }))}
                className="mt-1 size-4 accent-violet-500"
              />
              <span className="flex flex-col">
                <span className="font-medium text-foreground">{VISIBILITY_TEXT[visibility].label}</span>
                <span className="text-sm text-muted">{VISIBILITY_TEXT[visibility].hint}</span>
              </span>
            </label>
          );
        })}
      </fieldset>

      <ToggleRows rows={SWITCHES} values={values} onChange={(key, on) => setValues((v) => ({ ...v, [key]: on }))} />
    </SettingsForm>
  );
}
