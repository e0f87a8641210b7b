import { Images, Paperclip, X } from 'lucide-react';
import { useRef, useState } from 'react';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_ACCEPT } from '../../../common/messages';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import { LazyVaultPicker } from '../../components/lazy-vault-picker';
import { Button } from '../../components/ui/button';
import { VerifyToSellNotice } from '../../components/verify-to-sell';
import { formatBytes } from './message-format';
import { MediaView } from './message-media';
import type { AttachedFile } from './use-composer-attachment';

/** Attach a file; a creator may also take one from their media vault (issue 29). */
export function AttachButtons({ canUseVault, onFile, onVaultFile }: { canUseVault: boolean; onFile: (file: File | undefined) => void; onVaultFile: (attachment: MessageAttachmentDto) => void }) {
  const fileRef = useRef<HTMLInputElement>(null);
  const [pickingVault, setPickingVault] = useState(false);
  return (
    <>
      <input
        ref={fileRef}
        type="file"
        accept={MESSAGE_ATTACHMENT_ACCEPT}
        className="sr-only"
        tabIndex={-1}
        aria-label="Attach a file"
        data-testid="attachment-input"
        onChange={(event) => {
          const chosen = event.target.files?.[0];
          // the same file chosen again must fire a change
          if (fileRef.current) fileRef.current.value = '';
          onFile(chosen);
        }}
      />
      <Button variant="ghost" size="icon" aria-label="Attach a file" title="Attach a file" onClick={() => fileRef.current?.click()} className="shrink-0">
        <Paperclip aria-hidden="true" className="size-5" />
      </Button>
      {canUseVault ? (
        <>
          <Button
            variant="ghost"
            size="icon"
            aria-label={VAULT_USE_TEXTS.fromVault}
            title={VAULT_USE_TEXTS.fromVault}
            onClick={() => setPickingVault(true)}
            className="shrink-0"
          >
            <Images aria-hidden="true" className="size-5" />
          </Button>
          <LazyVaultPicker open={pickingVault} onOpenChange={setPickingVault} onPicked={onVaultFile} />
        </>
      ) : null}
    </>
  );
}

/** The attachment about to be sent: its preview, name and size, and the way to remove it. */
export function AttachmentPreview({ attached, onRemove }: { attached: AttachedFile; onRemove: () => void }) {
  return (
    <div data-testid="attachment-preview" className="flex items-start gap-3 rounded-xl border border-border bg-surface-raised p-2">
      <div className="max-w-48 min-w-0 flex-1">
        <MediaView kind={attached.kind} src={attached.src} name={attached.name} size={attached.size} autoplay={false} />
      </div>
      <div className="flex min-w-0 flex-1 flex-col text-xs text-muted">
        <span className="truncate font-medium text-foreground">{attached.name}</span>
        <span>
          {formatBytes(attached.size)}
          {attached.fromVault ? ` · ${VAULT_USE_TEXTS.fromVault}` : null}
        </span>
      </div>
      <Button variant="ghost" size="icon" aria-label="Remove attachment" onClick={onRemove} className="size-8">
        <X aria-hidden="true" className="size-4" />
      </Button>
    </div>
  );
}

/**
 * A creator's price on the file (issue 27 item 3); before their identity is verified, the notice
 * of what is missing stands in its place (issue 47 item 1).
 */
export function MessagePriceField({ blocked, value, onChange }: { blocked: boolean; value: string; onChange: (value: string) => void }) {
  if (blocked) return <VerifyToSellNotice sale="messagePrice" className="text-xs" />;
  return (
    <label className="flex flex-wrap items-center gap-2 text-xs text-muted">
      <span className="font-medium text-foreground">{PAID_MESSAGE_TEXTS.priceLabel}</span>
      <span className="flex items-center gap-1">
        R
        <input
          inputMode="decimal"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          placeholder="0.00"
          aria-describedby="message-price-hint"
          className="h-8 w-24 rounded-md border border-border bg-surface px-2 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
        />
      </span>
      <span id="message-price-hint">{PAID_MESSAGE_TEXTS.priceHint}</span>
    </label>
  );
}
