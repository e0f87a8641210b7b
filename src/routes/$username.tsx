import { createFileRoute } from '@tanstack/react-router';
import { parseUsername, profileQueryOptions } from '../features/profiles/profile-queries';

/**
 * /{username} and its pages (the profile, /{username}/content; later /{username}/subscribe). The
 * layout renders its child as it is; its loader starts the header card's query (not awaited:
 * the pages have skeletons), which both pages read.
 */
export const Route = createFileRoute('/$username')({
  loader: ({ context, params }) => {
    const { username } = parseUsername(params.username);
    if (username) void context.trpcUtils.profiles.byUsername.prefetch({ username }, profileQueryOptions);
  },
});
