import { createFileRoute } from '@tanstack/react-router';
import { FeaturedCreators } from '../features/creators/featured-creators';
import { FeedSection } from '../features/feed/feed-section';
import { usePageTitle } from '../lib/page-title';
import { useMe } from '../lib/session';
import { LandingHero } from './-components/landing-hero';

export const Route = createFileRoute('/')({
  // Start the featured creators request with the navigation (not awaited: the section has skeletons).
  loader: ({ context }) => {
    void context.trpcUtils.creators.featured.prefetch();
  },
  component: HomePage,
});

function HomePage() {
  usePageTitle(null);
  const me = useMe();
  const signedIn = !!me.data;

  return (
    <div className="flex flex-col">
      {signedIn ? (
        <h1 className="sr-only">Home</h1>
      ) : (
        <LandingHero />
      )}
      <div className={signedIn ? 'mx-auto w-full max-w-7xl px-4 pt-8 md:px-6' : 'mx-auto w-full max-w-7xl px-4 md:px-6'}>
        <FeaturedCreators />
      </div>
      <div className="mx-auto w-full max-w-3xl px-4 md:px-6">
        <FeedSection />
      </div>
    </div>
  );
}
