import { createFileRoute } from '@tanstack/react-router';
import { AdminOverview } from '../features/admin/admin-overview';
import { usePageTitle } from '../lib/page-title';

/** /admin: the admin screens, linked (issue 47); the component is split into its own chunk. */
export const Route = createFileRoute('/_authed/admin/')({
  component: AdminRoute,
});

function AdminRoute() {
  usePageTitle('Admin');
  return <AdminOverview />;
}
