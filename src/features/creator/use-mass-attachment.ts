import { useState } from 'react';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_UPLOAD_PATH } from '../../../common/messages';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';

/** The mass message's one file: uploaded (or picked from the vault), then kept current as the server processes it. */
export function useMassAttachment() {
  const [file, setFile] = useState<MessageAttachmentDto | null>(null);
  const [uploading, setUploading] = useState(false);

  useRealtimeEvent('message:attachment', ({ attachment }) => {
    setFile((current) => (current && current.id === attachment.id ? attachment : current));
  });

  const upload = async (chosen: File) => {
    setUploading(true);
    try {
      const res = await fetch(`${MESSAGE_ATTACHMENT_UPLOAD_PATH}?name=${encodeURIComponent(chosen.name)}`, { method: 'POST', body: chosen, credentials: 'same-origin' });
      const body = (await res.json()) as { attachment?: MessageAttachmentDto; error?: { message: string } };
      if (!res.ok || !body.attachment) throw new Error(body.error?.message ?? T.failedToLoad);
      setFile(body.attachment);
    } catch (error) {
      notify.error({ title: 'Error', description: (error as Error).message });
    } finally {
      setUploading(false);
    }
  };

  return { file, setFile, uploading, upload };
}
