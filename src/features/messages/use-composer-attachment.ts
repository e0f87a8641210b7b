import { useEffect, useState } from 'react';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { notify } from '../../lib/toast';
import { attachmentKindOf, isTooLarge } from './attachment-kind';

const toastError = (description: string) => notify.error({ title: 'Error', description });

/** What the composer shows of its attachment, whether picked here or taken from the vault. */
export interface AttachedFile {
  kind: MessageAttachmentDto['kind'];
  src: string;
  name: string;
  size: number;
  fromVault: boolean;
}

/**
 * The composer's one attachment (spec part 2 §5): a file picked here (images, video, audio, pdf,
 * doc, docx up to 10 MB, refused with a toast otherwise) with its preview, or a file of the
 * creator's vault, which is already a ready attachment on the server. Choosing one drops the other.
 */
export function useComposerAttachment() {
  const [file, setFile] = useState<File | null>(null);
  const [fromVault, setFromVault] = useState<MessageAttachmentDto | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  const chooseFile = (chosen: File | undefined) => {
    if (!chosen) return;
    if (isTooLarge(chosen)) return toastError(MESSAGE_TEXTS.attachmentTooLarge);
    if (!attachmentKindOf(chosen.name)) return toastError(MESSAGE_TEXTS.attachmentInvalidType);
    setFromVault(null);
    setFile(chosen);
    setPreview(URL.createObjectURL(chosen));
  };

  const chooseFromVault = (attachment: MessageAttachmentDto) => {
    setFile(null);
    setPreview(null);
    setFromVault(attachment);
  };

  const clear = () => {
    setFile(null);
    setPreview(null);
    setFromVault(null);
  };

  const kind = file ? attachmentKindOf(file.name) : null;
  const attached: AttachedFile | null =
    file && preview && kind
      ? { kind, src: preview, name: file.name, size: file.size, fromVault: false }
      : fromVault?.url
        ? { kind: fromVault.kind, src: fromVault.url, name: fromVault.fileName, size: fromVault.byteSize, fromVault: true }
        : null;

  return { file, fromVault, chosen: !!(file || fromVault), attached, chooseFile, chooseFromVault, clear };
}
