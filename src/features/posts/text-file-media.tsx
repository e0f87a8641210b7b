import { useQuery } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useId, useState } from 'react';
import { POST_TEXTS } from '../../../common/texts';
import { cn } from '../../lib/cn';

/** What a card reads of a text file, and what the post page reads: enough to show, never a 20 MB string. */
const CARD_BYTES = 16 * 1024;
const DETAIL_BYTES = 512 * 1024;
/** A card shows this much until Show More. */
const CARD_CHARS = 600;
const CARD_LINES = 10;

interface TextPart {
  text: string;
  /** the file goes on after what was read */
  partial: boolean;
}

/**
 * The start of a text file through the authorised media route (with the session cookie, by
 * Range, so a large file costs only what is shown). A cut inside a UTF-8 sequence leaves a
 * replacement character at the end, which goes.
 */
async function fetchTextPart(url: string, bytes: number): Promise<TextPart> {
  const response = await fetch(url, { credentials: 'same-origin', headers: { Range: `bytes=0-${bytes - 1}` } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const buffer = await response.arrayBuffer();
  const total = Number(/\/(\d+)$/.exec(response.headers.get('Content-Range') ?? '')?.[1] ?? buffer.byteLength);
  const partial = total > buffer.byteLength;
  let text = new TextDecoder('utf-8').decode(buffer);
  if (partial) text = text.replace(/\uFFFD+$/, '');
  return { text, partial };
}

function cardCut(text: string): string | null {
  const lines = text.split('\n');
  if (text.length <= CARD_CHARS && lines.length <= CARD_LINES) return null;
  return lines.slice(0, CARD_LINES).join('\n').slice(0, CARD_CHARS).trimEnd();
}

/**
 * A .txt post: its text in a readable block, as text (React escapes it; it is never HTML). In a
 * card it is cut at 10 lines or 600 characters with Show More / Show Less; the post page shows
 * up to 512 KB, and says when the file goes on (Save Media has all of it).
 */
export function TextFileMedia({ url, placement, label }: { url: string; placement: 'feed' | 'detail'; label: string }) {
  const bytes = placement === 'detail' ? DETAIL_BYTES : CARD_BYTES;
  const query = useQuery({
    queryKey: ['client', 'text-file', url, bytes],
    queryFn: () => fetchTextPart(url, bytes),
    staleTime: Infinity,
  });
  const [expanded, setExpanded] = useState(false);
  const textId = useId();

  const frame = 'rounded-xl border border-border bg-canvas/60';
  if (query.isPending) {
    return <div aria-busy="true" aria-label={label} className={cn(frame, 'h-32 animate-pulse')} />;
  }
  if (query.isError) {
    return (
      <div className={cn(frame, 'flex items-center gap-3 px-4 py-6 text-sm text-muted')}>
        <FileText aria-hidden="true" className="size-5 shrink-0" />
        {POST_TEXTS.textFileUnavailable}
      </div>
    );
  }

  const { text, partial } = query.data;
  const cut = placement === 'feed' ? cardCut(text) : null;
  const shown = cut !== null && !expanded ? `${cut}…` : text;
  return (
    <figure aria-label={label} data-testid="text-file" className={cn(frame, 'flex flex-col gap-2 p-4')}>
      <pre
        id={textId}
        className={cn(
          'overflow-x-auto font-sans text-[15px] leading-relaxed break-words whitespace-pre-wrap text-foreground/90',
          placement === 'feed' && expanded && 'max-h-[32rem] overflow-y-auto',
        )}
      >
        {shown}
      </pre>
      {cut !== null ? (
        <button
          type="button"
          aria-expanded={expanded}
          aria-controls={textId}
          onClick={() => setExpanded((v) => !v)}
          className="self-start rounded text-sm font-semibold text-muted hover:text-foreground"
        >
          {expanded ? POST_TEXTS.showLess : POST_TEXTS.showMore}
        </button>
      ) : null}
      {partial && (placement === 'detail' || expanded) ? <figcaption className="text-xs text-muted">{POST_TEXTS.textFileContinues}</figcaption> : null}
    </figure>
  );
}
