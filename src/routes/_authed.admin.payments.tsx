import { createFileRoute, useNavigate } from '@tanstack/react-router';
import { AdminPayments } from '../features/admin-payments/admin-payments';
import { usePageTitle } from '../lib/page-title';
import { searchTextParam, searchValidator } from '../lib/search-params';

// plain readers, not zod: validateSearch is in the router's chunk every first visit loads (lib/search-params.ts)
const PaymentsSearch = searchValidator<{ q?: string }>({ q: searchTextParam });

/** /admin/payments: charges looked up and refunded by admins (issue 22 §4). */
export const Route = createFileRoute('/_authed/admin/payments')({
  validateSearch: PaymentsSearch,
  loaderDeps: ({ search }) => ({ q: search.q ?? '' }),
  loader: ({ context, deps }) => {
    if (deps.q && context.trpcUtils.auth.me.getData()?.role === 'admin') void context.trpcUtils.payments.adminSearch.prefetch({ query: deps.q });
  },
  component: PaymentsRoute,
});

function PaymentsRoute() {
  usePageTitle('Payments');
  const { q } = Route.useSearch();
  const navigate = useNavigate({ from: Route.fullPath });
  return <AdminPayments query={q ?? ''} onSearch={(next) => void navigate({ search: { q: next || undefined } })} />;
}
