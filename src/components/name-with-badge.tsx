import { VerifiedBadge } from './ui/verified-badge';

/**
 * A heading's name with the verified tick glued to its last word (issue 47): a name that wraps
 * keeps the tick after its last word, never alone on a line or floating beside the block.
 */
export function NameWithBadge({ text, verified, badgeClassName }: { text: string; verified: boolean; badgeClassName?: string }) {
  if (!verified) return <>{text}</>;
  const cut = text.lastIndexOf(' ');
  return (
    <>
      {text.slice(0, cut + 1)}
      <span className="whitespace-nowrap">
        {text.slice(cut + 1)}
        <VerifiedBadge className={badgeClassName ?? 'ml-2 align-[-0.05em] [&_svg]:size-5'} />
      </span>
    </>
  );
}
