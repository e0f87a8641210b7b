import { Images, Paperclip, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_ACCEPT } from '../../../common/messages';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { LazyVaultPicker } from '../../components/lazy-vault-picker';
import { Button } from '../../components/ui/button';

type Props = {
  file: MessageAttachmentDto | null;
  onFile: (file: MessageAttachmentDto | null) => void;
  uploading: boolean;
  onUpload: (chosen: File) => void;
};

/** The mass message's file: the chosen one with a remove button, or buttons to upload one or take one from the vault. */
export function MassFileField({ file, onFile, uploading, onUpload }: Props) {
  const [pickingVault, setPickingVault] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const label = useId();
  return (
    <div className="flex flex-col gap-2">
      <span className="text-sm font-medium" id={label}>
        {T.fileLabel}
      </span>
      {file ? (
        <div className="flex items-center justify-between gap-2 rounded-lg border border-border px-3 py-2 text-sm" data-testid="mass-file">
          <span className="truncate">
            {file.fileName} {file.status === 'processing' ? `· ${T.processing}` : ''}
          </span>
          <Button variant="ghost" size="icon" aria-label={T.removeFile} onClick={() => onFile(null)} className="size-8">
            <X aria-hidden="true" className="size-4" />
          </Button>
        </div>
      ) : (
        <div className="flex flex-wrap gap-2">
          <input
            ref={fileInput}
            type="file"
            accept={MESSAGE_ATTACHMENT_ACCEPT}
            aria-labelledby={label}
            className="sr-only"
            data-testid="mass-file-input"
            onChange={(e) => {
              const chosen = e.target.files?.[0];
              if (chosen) onUpload(chosen);
              e.target.value = '';
            }}
          />
          <Button variant="secondary" size="sm" loading={uploading} onClick={() => fileInput.current?.click()}>
            <Paperclip aria-hidden="true" className="size-4" />
            {uploading ? T.uploading : T.addFile}
          </Button>
          <Button variant="secondary" size="sm" disabled={uploading} onClick={() => setPickingVault(true)}>
            <Images aria-hidden="true" className="size-4" />
            {VAULT_USE_TEXTS.fromVault}
          </Button>
          <LazyVaultPicker open={pickingVault} onOpenChange={setPickingVault} onPicked={onFile} />
        </div>
      )}
    </div>
  );
}
