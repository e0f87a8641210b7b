import { createFileRoute } from '@tanstack/react-router';
import { PersonalInfoForm } from '../features/settings/personal-info-form';
import { SettingsPage } from '../features/settings/settings-page';

/** /settings/personal-info (spec part 2 §2), behind the `_authed` gate: settings need a session. */
export const Route = createFileRoute('/_authed/settings_/personal-info')({
  component: () => (
    <SettingsPage title="Personal Information" description="How you appear on your profile, in the feed and in Explore." back="/settings">
      <PersonalInfoForm />
    </SettingsPage>
  ),
});
