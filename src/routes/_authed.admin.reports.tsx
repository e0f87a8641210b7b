import { createFileRoute } from '@tanstack/react-router';
import { AdminReports } from '../features/messages/admin-reports';
import { reportsOptions } from '../features/messages/messages-queries';
import { usePageTitle } from '../lib/page-title';

/** /admin/reports: open reports of messages, for admins (issue 12 §6). */
export const Route = createFileRoute('/_authed/admin/reports')({
  loader: ({ context }) => {
    if (context.trpcUtils.auth.me.getData()?.role === 'admin') {
      void context.trpcUtils.messages.adminReports.prefetchInfinite({ status: 'open' }, reportsOptions);
    }
  },
  component: ReportsRoute,
});

function ReportsRoute() {
  usePageTitle('Reports');
  return <AdminReports />;
}
