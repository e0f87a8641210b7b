import { Link } from '@tanstack/react-router';
import { formatLongDateTime, formatRelativeTime, isoString } from '../../lib/format';
import { useDisplayZone } from '../../lib/use-display-zone';

/**
 * A card's "9h" that opens the post. It alone reads the display zone: after a server-rendered
 * page is hydrated React re-renders every reader of the zone at once (no time slicing), so the
 * card around it is not part of that render (issue 30: total blocking time).
 *
 * Its name starts with the text it shows (a speech user says what they see) and goes on with the
 * full date; it is at least 24 px square, a target a finger can hit.
 */
export function PostTimeLink({ postId, createdAt }: { postId: string; createdAt: Date | string }) {
  const zone = useDisplayZone();
  const full = formatLongDateTime(createdAt, zone);
  return (
    <Link
      to="/post/$id"
      params={{ id: postId }}
      className="inline-flex min-h-6 min-w-6 shrink-0 items-center justify-center hover:text-foreground hover:underline"
    >
      {/* the relative time may have moved on between the server's render and the browser's */}
      <time dateTime={isoString(createdAt)} title={full} suppressHydrationWarning>
        {formatRelativeTime(createdAt, undefined, zone)}
      </time>
      <span className="sr-only">{`, posted ${full}: open the post`}</span>
    </Link>
  );
}
