import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { isNotificationKind, type NotificationKind } from '../../common/notifications';
import { NotificationCentre } from '../features/notifications/notification-centre';
import { usePageTitle } from '../lib/page-title';

/** /notifications (issue 28), behind the `_authed` gate; `?kind=` filters by kind. */
export const Route = createFileRoute('/_authed/notifications')({
  validateSearch: (search: Record<string, unknown>): { kind?: NotificationKind } => (isNotificationKind(search.kind) ? { kind: search.kind } : {}),
  component: NotificationsPage,
});

function NotificationsPage() {
  usePageTitle('Notifications');
  const { kind } = Route.useSearch();
  const navigate = useNavigate();
  return (
    // the app shell's <main> holds the page: one main landmark
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-4 px-4 py-6">
      <h1 className="text-2xl font-bold text-foreground">Notifications</h1>
      <NotificationCentre kind={kind ?? null} onKind={(k) => void navigate({ to: '/notifications', search: k ? { kind: k } : {} })} />
    </div>
  );
}
