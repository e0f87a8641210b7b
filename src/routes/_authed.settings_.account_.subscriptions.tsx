import { createFileRoute } from '@tanstack/react-router';
import { SettingsPage } from '../features/settings/settings-page';
import { MySubscriptions } from '../features/subscriptions/my-subscriptions';

/** /settings/account/subscriptions (issue 11 item 7), behind the `_authed` gate; a page of its own like the payment screen. */
export const Route = createFileRoute('/_authed/settings_/account_/subscriptions')({
  loader: ({ context }) => {
    void context.trpcUtils.subscriptions.mine.prefetch();
  },
  component: () => (
    <SettingsPage title="Subscriptions" description="The creators you support and your Premium plan." back="/settings/account">
      <MySubscriptions />
    </SettingsPage>
  ),
});
