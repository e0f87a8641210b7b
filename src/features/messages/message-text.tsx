import { splitLinks } from './message-links';

/** A message's text: as text (never HTML), its addresses as plain, safe links. */
export function MessageText({ text }: { text: string }) {
  return (
    <p className="text-[15px] leading-relaxed break-words whitespace-pre-wrap">
      {splitLinks(text).map((part, i) =>
        part.kind === 'link' ? (
          <a key={i} href={part.href} target="_blank" rel="noopener noreferrer nofollow ugc" className="underline underline-offset-2 hover:opacity-80">
            {part.text}
          </a>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </p>
  );
}
