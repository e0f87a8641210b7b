import { Link } from '@tanstack/react-router';
import { useId, useState, type ReactNode } from 'react';
import { LIMITS } from '../../../common/limits';
import { POST_TEXTS } from '../../../common/texts';

const HASHTAG = /#([\p{L}\p{N}_]+)/gu;

/** The creator's page searching for the hashtag: /{username}?q=%23tag. */
function HashtagLink({ username, tag }: { username: string; tag: string }) {
  return (
    <Link
      to="/$username"
      params={{ username }}
      search={{ q: `#${tag}` }}
      className="font-medium text-violet-300 hover:text-violet-200 hover:underline"
    >
      #{tag}
    </Link>
  );
}

/** Plain text with its #hashtags as links; everything else stays text (never HTML). */
function withHashtags(text: string, username: string): ReactNode[] {
  const parts: ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(HASHTAG)) {
    const index = match.index ?? 0;
    if (index > last) parts.push(text.slice(last, index));
    parts.push(<HashtagLink key={`${index}-${match[1]}`} username={username} tag={match[1]!} />);
    last = index + match[0].length;
  }
  if (last < text.length) parts.push(text.slice(last));
  return parts;
}

/** The first 100 characters, not ending inside a word (so no hashtag is cut into another tag). */
function preview(text: string): string {
  const cut = text.slice(0, LIMITS.textPreviewLength);
  if (/\s/.test(text[LIMITS.textPreviewLength] ?? ' ')) return cut.trimEnd();
  const lastSpace = cut.search(/\s\S*$/);
  return (lastSpace > LIMITS.textPreviewLength * 0.6 ? cut.slice(0, lastSpace) : cut).trimEnd();
}

/**
 * A post's text (spec part 1 §2): over 100 characters it is cut, with Show More / Show Less,
 * unless `full` (the detail view). Hashtags link to the creator's page; tags the post carries
 * that its text does not mention are listed below.
 */
export function PostText({
  text,
  hashtags,
  username,
  full = false,
}: {
  text: string | null;
  hashtags: string[];
  username: string;
  full?: boolean;
}) {
  const [expanded, setExpanded] = useState(false);
  const textId = useId();
  const body = text ?? '';
  const long = !full && body.length > LIMITS.textPreviewLength;
  const shown = long && !expanded ? `${preview(body)}...` : body;
  const inline = new Set([...body.matchAll(HASHTAG)].map((m) => m[1]!.toLowerCase()));
  const extraTags = hashtags.filter((tag) => !inline.has(tag.toLowerCase()));

  if (!body && extraTags.length === 0) return null;
  return (
    <div className="flex flex-col gap-2">
      {body ? (
        <p id={textId} className="text-[15px] leading-relaxed break-words whitespace-pre-wrap text-foreground/90">
          {withHashtags(shown, username)}
          {long ? (
            <>
              {' '}
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={textId}
                onClick={() => setExpanded((v) => !v)}
                className="rounded text-sm font-semibold text-muted hover:text-foreground"
              >
                {expanded ? POST_TEXTS.showLess : POST_TEXTS.showMore}
              </button>
            </>
          ) : null}
        </p>
      ) : null}
      {extraTags.length ? (
        <p className="flex flex-wrap gap-x-2 gap-y-1 text-sm">
          {extraTags.map((tag) => (
            <HashtagLink key={tag} username={username} tag={tag} />
          ))}
        </p>
      ) : null}
    </div>
  );
}
