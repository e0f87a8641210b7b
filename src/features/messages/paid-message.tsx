import { CheckCircle2, Lock } from 'lucide-react';
import { useState } from 'react';
import type { MessageDto } from '../../../common/message-dtos';
import { formatRand } from '../../../common/format';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { cn } from '../../lib/cn';
import { useMessageUnlockButton } from './message-unlock-slot';
import { MEDIA_LABELS } from './attachment-kind';

/**
 * A pay-per-view file its recipient has not bought (issue 27 item 3): its blurred preview (the
 * worker's, as a premium post's; the file's own address is not sent) over a stand-in of its shape,
 * what it is, and Unlock for its price, confirmed in the one purchase dialog and charged once. The thread shows the file when `message:updated` arrives.
 */
export function LockedAttachment({ message }: { message: MessageDto & { price: string } }) {
  const Unlock = useMessageUnlockButton();
  const kind = message.attachment?.kind;
  const ratio = message.attachment?.width && message.attachment.height ? `${message.attachment.width} / ${message.attachment.height}` : '4 / 3';
  const price = formatRand(message.price);
  // the worker's blurred preview; a file made before previews existed keeps the stand-in behind it
  const [preview, setPreview] = useState(message.attachment?.previewUrl ?? null);
  return (
    <div data-testid="locked-attachment" className="relative w-64 max-w-full overflow-hidden rounded-xl" style={{ aspectRatio: ratio, maxHeight: '20rem' }}>
      <div aria-hidden="true" className="absolute inset-0 scale-110 bg-gradient-to-br from-fuchsia-500/50 via-indigo-500/40 to-sky-500/50 blur-xl" />
      {preview ? (
        <img
          data-testid="locked-preview"
          src={preview}
          alt=""
          aria-hidden="true"
          className="absolute inset-0 size-full object-cover"
          onError={() => setPreview(null)}
        />
      ) : null}
      <div className="relative flex h-full flex-col items-center justify-center gap-2 bg-black/40 p-3 text-center text-white">
        <Lock aria-hidden="true" className="size-6" />
        <p className="text-sm font-medium">
          {T.locked}
          {kind ? ` · ${MEDIA_LABELS[kind]}` : ''}
        </p>
        {Unlock ? <Unlock messageId={message.id} price={message.price} /> : <p className="text-sm">{T.unlockFor(price)}</p>}
      </div>
    </div>
  );
}

/** The sender's view of a priced message: its price, and whether the recipient bought it. */
export function SaleMark({ message, mine }: { message: MessageDto & { price: string }; mine: boolean }) {
  return (
    <span data-testid="sale-mark" className={cn('flex items-center gap-1 text-xs font-medium', mine ? 'text-white' : 'text-muted')}>
      {message.unlocked ? <CheckCircle2 aria-hidden="true" className="size-3.5" /> : <Lock aria-hidden="true" className="size-3.5" />}
      {formatRand(message.price)} · {message.unlocked ? T.bought : T.notBought}
    </span>
  );
}
