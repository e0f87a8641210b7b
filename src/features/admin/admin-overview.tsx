import { Link } from '@tanstack/react-router';
import { ChevronRight, Fingerprint, Flag, ListChecks, ReceiptText, type LucideIcon } from 'lucide-react';
import { AdminPage } from '../../components/admin-page';
import { useMe } from '../../lib/session';

export const ADMIN_OVERVIEW_TEXTS = {
  title: 'Admin',
  description: "The platform's admin screens: payments and refunds, reported messages, leak traces, and the background job queues.",
} as const;

const card =
  'flex items-center gap-4 rounded-card border border-border bg-surface p-4 transition-colors hover:bg-surface-hover focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-violet-400';

/** The queue dashboard is the server's (Bull Board): a full page load, not a route of the app. */
const SERVER_PAGE = '/admin/queues';

function Entry({ icon: Icon, title, description, to }: { icon: LucideIcon; title: string; description: string; to: '/admin/payments' | '/admin/reports' | '/admin/traces' | typeof SERVER_PAGE }) {
  const inner = (
    <>
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-surface-raised text-violet-300">
        <Icon aria-hidden="true" className="size-5" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="block font-semibold text-foreground">{title}</span>
        <span className="block text-sm text-muted">{description}</span>
      </span>
      <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-subtle" />
    </>
  );
  return (
    <li>
      {to === SERVER_PAGE ? (
        <a href={to} className={card}>
          {inner}
        </a>
      ) : (
        <Link to={to} className={card}>
          {inner}
        </Link>
      )}
    </li>
  );
}

/**
 * /admin (issue 47): where an admin finds the admin screens. Payments, Reports and Leak traces are pages of
 * the app; the queue dashboard (Bull Board) is served by the server, so a full page load. The
 * screens themselves are refused by the server to anyone but admins; this page only links.
 */
export function AdminOverview() {
  const me = useMe();
  const forbidden = !!me.data && me.data.role !== 'admin';
  return (
    <AdminPage title={ADMIN_OVERVIEW_TEXTS.title} description={ADMIN_OVERVIEW_TEXTS.description} forbidden={forbidden} operators="admins">
      <ul aria-label="Admin screens" className="flex flex-col gap-3">
        <Entry icon={ReceiptText} title="Payments" description="Find a charge by fan, creator or reference, and refund it." to="/admin/payments" />
        <Entry icon={Flag} title="Reports" description="Messages fans reported: review and resolve them." to="/admin/reports" />
        <Entry icon={Fingerprint} title="Leak traces" description="Copies of posts traced to their buyers: who asked, and what was found." to="/admin/traces" />
        <Entry icon={ListChecks} title="Queues" description="Background jobs (media, mail, payments): waiting, failed, retry." to={SERVER_PAGE} />
      </ul>
    </AdminPage>
  );
}
