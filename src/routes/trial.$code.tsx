import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';

const TrialPage = lazy(() => import('../features/subscriptions/trial-page').then((m) => ({ default: m.TrialPage })));

/**
 * /trial/{code} (issue 27 item 5): public, so a visitor sees what the creator's trial link gives;
 * claiming asks them to sign in and brings them back here.
 */
export const Route = createFileRoute('/trial/$code')({
  loader: ({ context, params }) => {
    if (/^[A-Za-z0-9_-]{6,64}$/.test(params.code)) void context.trpcUtils.trials.view.prefetch({ code: params.code });
  },
  component: TrialRoute,
});

function TrialRoute() {
  const { code } = Route.useParams();
  return (
    <div className="mx-auto w-full max-w-5xl px-4 pt-6 pb-10 md:px-6 md:pt-10">
      <Suspense fallback={null}>
        <TrialPage key={code} code={code} />
      </Suspense>
    </div>
  );
}
