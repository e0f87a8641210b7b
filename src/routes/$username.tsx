import { createFileRoute, notFound } from '@tanstack/react-router';
import { isReservedUsername } from '../../common/reserved-usernames';
import { readUsernameSegment } from '../../common/username-segment';

/**
 * Loaded with the first profile visit, not with the app's first script: the profile's own split
 * loaders share it (vite.config.ts, LAZY_LOADER_ROUTES; tests/e2e/bundle-budget.spec.ts).
 */
const profileQueries = () => import('../features/profiles/profile-queries');

/**
 * /{username} and its pages (the profile, /{username}/content; later /{username}/subscribe). The
 * layout renders its child as it is; its loader starts the header card's query (not awaited:
 * the pages have skeletons), which both pages read.
 *
 * The app's own route names (messages, settings, subscribe...) can never be usernames: until
 * their screens exist, they are the not-found page, not 'Profile not found', and ask the server
 * for nothing.
 */
export const Route = createFileRoute('/$username')({
  // its loader runs on the server too, for the profile page below it (src/entry-server.tsx)
  ssr: true,
  beforeLoad: ({ params }) => {
    const { username } = readUsernameSegment(params.username);
    if (username && isReservedUsername(username)) throw notFound();
  },
  loader: async ({ context, params }) => {
    const { username } = readUsernameSegment(params.username);
    const { profileQueryOptions } = await profileQueries();
    if (username) void context.trpcUtils.profiles.byUsername.prefetch({ username }, profileQueryOptions);
  },
});
