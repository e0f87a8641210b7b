import { createFileRoute, Link } from '@tanstack/react-router';
import { VAULT_TEXTS } from '../../common/vault-texts';
import { lazy, Suspense } from 'react';
import { CREATE_TEXTS } from '../../common/texts';
import { EARNINGS_TEXTS } from '../../common/earnings-texts';
import { FirstStepsChecklist } from '../components/first-steps-checklist';
import { Skeleton } from '../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../components/ui/tabs';
import { BecomeCreator } from '../features/creator/become-creator';
import { TierManager } from '../features/creator/tier-manager';
import { UploadForm } from '../features/uploads/upload-form';
import { YourUploads } from '../features/uploads/your-uploads';
import { usePageTitle } from '../lib/page-title';
import { enumParam, searchValidator } from '../lib/search-params';
import { useMe } from '../lib/session';

const CREATE_TABS = ['content', 'tiers', 'earnings', 'messages'] as const;
type CreateTab = (typeof CREATE_TABS)[number];

/** the Earnings tab (charts, statements) loads only when opened */
const EarningsScreen = lazy(() => import('../features/creator/earnings-screen').then((m) => ({ default: m.EarningsScreen })));

/** messages to many (issue 27 item 4), loaded when opened */
const MassMessagesScreen = lazy(() => import('../features/creator/mass-messages-screen').then((m) => ({ default: m.MassMessagesScreen })));
const CreateSearch = searchValidator<{ tab?: CreateTab }>({ tab: enumParam(CREATE_TABS) });

/**
 * /create, behind the `_authed` gate (spec part 2 §2): a non-creator sees the Become a Creator
 * page; a creator sees three tabs, Content (the upload form and their unfinished uploads),
 * Subscription Tiers and Earnings (balances, payouts, statements: issue 26).
 */
export const Route = createFileRoute('/_authed/create')({
  validateSearch: CreateSearch,
  loader: ({ context }) => {
    if (context.trpcUtils.auth.me.getData()?.isCreator) void context.trpcUtils.uploads.unfinished.prefetch();
  },
  component: CreatePage,
});

function CreatePage() {
  const me = useMe();
  const user = me.data;
  const { tab = 'content' } = Route.useSearch();
  const navigate = Route.useNavigate();
  usePageTitle(user && !user.isCreator ? 'Become a Creator' : 'Create');

  const selectTab = (next: CreateTab) => void navigate({ search: { tab: next === 'content' ? undefined : next }, replace: true, resetScroll: false });

  if (!user) return null;

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      {!user.isCreator ? (
        <BecomeCreator onBecame={() => selectTab('content')} />
      ) : (
        <>
          <h1 className="text-3xl font-bold tracking-tight">Create</h1>
          <p className="mt-1 text-muted">
            Share a photo, video, audio or document with your fans.{' '}
            <Link to="/create/vault" className="text-violet-300 underline underline-offset-4 hover:text-violet-200">
              {VAULT_TEXTS.link}
            </Link>
          </p>
          <FirstStepsChecklist className="mt-6" />
          <Tabs value={tab} onValueChange={(value) => selectTab(value as CreateTab)} className="mt-6">
            {/* on a phone two rows of two, each label with room around it (issue 47: one row of four touched the edges) */}
            <TabsList aria-label="Create" className="grid-flow-row grid-cols-2 rounded-3xl max-md:[&>button]:px-2 max-md:[&>button]:text-[13px] md:grid-flow-col md:grid-cols-4 md:rounded-full md:[&>button]:px-3">
              <TabsTrigger value="content">{CREATE_TEXTS.tabContent}</TabsTrigger>
              <TabsTrigger value="tiers" className="whitespace-nowrap">
                {CREATE_TEXTS.tabTiers}
              </TabsTrigger>
              <TabsTrigger value="earnings">{EARNINGS_TEXTS.tab}</TabsTrigger>
              <TabsTrigger value="messages">Messages</TabsTrigger>
            </TabsList>
            {/* kept mounted: a look at the tiers tab must not stop an upload */}
            <TabsContent value="content" forceMount className="flex flex-col gap-10 data-[state=inactive]:hidden">
              <UploadForm user={user} />
              <YourUploads />
            </TabsContent>
            <TabsContent value="tiers">
              <TierManager user={user} />
            </TabsContent>
            <TabsContent value="earnings">
              <Suspense fallback={<Skeleton className="h-64 w-full" />}>
                <EarningsScreen />
              </Suspense>
            </TabsContent>
            <TabsContent value="messages">
              <Suspense fallback={<Skeleton className="h-64 w-full" />}>
                <MassMessagesScreen />
              </Suspense>
            </TabsContent>
          </Tabs>
        </>
      )}
    </div>
  );
}
