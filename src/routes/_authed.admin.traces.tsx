import { createFileRoute } from '@tanstack/react-router';
import { AdminTraces } from '../features/forensics/admin-traces';
import { usePageTitle } from '../lib/page-title';

/** /admin/traces: every post's leak traces, for admins (issue 49 item 5). */
export const Route = createFileRoute('/_authed/admin/traces')({
  loader: ({ context }) => {
    if (context.trpcUtils.auth.me.getData()?.role === 'admin') void context.trpcUtils.forensics.recent.prefetch();
  },
  component: TracesRoute,
});

function TracesRoute() {
  usePageTitle('Leak traces');
  return <AdminTraces />;
}
