import { createFileRoute } from '@tanstack/react-router';
import { requireSession, type GateMatches } from '../lib/require-session';

/**
 * The pathless layout of every screen that needs a session (spec part 1 §2: /explore; later
 * /create and /settings): without one the path is stored and the visitor goes to /auth (see
 * lib/require-session.ts). It renders its child as it is.
 */
export const Route = createFileRoute('/_authed')({
  // `matches` is read through a plain type: the route tree's own match types would make this
  // route's type depend on itself.
  beforeLoad: (options) =>
    requireSession({
      context: options.context,
      location: options.location,
      preload: options.preload,
      matches: (options as unknown as { matches: GateMatches }).matches,
    }),
});
