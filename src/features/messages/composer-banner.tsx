import { PencilLine, Reply, X } from 'lucide-react';
import type { ReactNode } from 'react';
import type { MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { Button } from '../../components/ui/button';
import { MEDIA_LABELS } from './attachment-kind';

interface ComposerBannerProps {
  editing: MessageDto | null;
  onCancelEdit: () => void;
  replyTo: MessageReplyDto | null;
  replyAuthor: string;
  onCancelReply: () => void;
}

/** Above the composer: the message being edited, or else the one being replied to, each with its way out. */
export function ComposerBanner({ editing, onCancelEdit, replyTo, replyAuthor, onCancelReply }: ComposerBannerProps) {
  if (editing) {
    return <Banner icon={<PencilLine aria-hidden="true" className="size-4" />} title="Edit message" text={editing.content ?? ''} onClose={onCancelEdit} closeLabel="Cancel edit" />;
  }
  if (!replyTo) return null;
  return (
    <Banner
      icon={<Reply aria-hidden="true" className="size-4" />}
      title={`Replying to ${replyAuthor}`}
      text={replyTo.content?.trim() || (replyTo.mediaType ? MEDIA_LABELS[replyTo.mediaType] : '')}
      onClose={onCancelReply}
      closeLabel="Cancel reply"
    />
  );
}

function Banner({ icon, title, text, onClose, closeLabel }: { icon: ReactNode; title: string; text: string; onClose: () => void; closeLabel: string }) {
  return (
    <div className="flex items-center gap-2 rounded-xl border-l-2 border-accent bg-surface-raised px-3 py-1.5">
      <span className="text-violet-300">{icon}</span>
      <div className="flex min-w-0 flex-1 flex-col text-xs">
        <span className="font-semibold text-violet-200">{title}</span>
        <span className="truncate text-muted">{text}</span>
      </div>
      <Button variant="ghost" size="icon" aria-label={closeLabel} onClick={onClose} className="size-8">
        <X aria-hidden="true" className="size-4" />
      </Button>
    </div>
  );
}
