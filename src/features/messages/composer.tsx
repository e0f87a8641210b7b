import { SendHorizontal } from 'lucide-react';
import { useId, useState, type KeyboardEvent } from 'react';
import type { MessageAttachmentDto, MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { MESSAGE_MAX_LENGTH } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { formatRand } from '../../../common/format';
import { MESSAGE_PRICE_MAX, MESSAGE_PRICE_MIN, messagePriceOf } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';
import { AttachButtons, AttachmentPreview, MessagePriceField } from './composer-attachment';
import { ComposerBanner } from './composer-banner';
import { QuickEmojiBar } from './quick-emoji-bar';
import { useComposerAttachment } from './use-composer-attachment';
import { useMessageDraft } from './use-message-draft';

export interface ComposerProps {
  replyTo: MessageReplyDto | null;
  replyAuthor: string;
  onCancelReply: () => void;
  editing: MessageDto | null;
  onCancelEdit: () => void;
  /** a new message: resolves when it is on its way (the composer clears) */
  onSend: (input: { content: string; file: File | null; price: string | null; attachment: MessageAttachmentDto | null }) => void;
  /** a creator may put a price on the file (issue 27 item 3), and take it from their media vault (issue 29) */
  canSetPrice?: boolean;
  /** a creator whose identity is not verified yet: the price field is the notice of what is missing (issue 47 item 1) */
  priceBlocked?: boolean;
  /** saves the edit; resolves true when saved */
  onSaveEdit: (message: MessageDto, content: string) => Promise<boolean>;
  onTyping: () => void;
}

const toastError = (description: string) => notify.error({ title: 'Error', description });

/**
 * The composer (spec part 2 §2, §5): the 8 quick emoji, a file with its preview (images, video,
 * audio, pdf, doc, docx up to 10 MB), the text: Enter sends, Shift+Enter makes a new line, the text
 * is trimmed, and Send is disabled while there is nothing to send or while sending. It also edits
 * one of my messages (Enter saves) and shows the message being replied to.
 */
export function Composer({ replyTo, replyAuthor, onCancelReply, editing, onCancelEdit, onSend, onSaveEdit, onTyping, canSetPrice = false, priceBlocked = false }: ComposerProps) {
  const { text, setText, textRef, insertEmoji, restoreDraft } = useMessageDraft(editing, replyTo);
  const attachment = useComposerAttachment();
  const [priceText, setPriceText] = useState('');
  const [saving, setSaving] = useState(false);
  const textId = useId();

  const trimmed = text.trim();
  const empty = editing ? false : !trimmed && !attachment.chosen;
  const disabled = empty || saving;

  const cancelEdit = () => {
    restoreDraft();
    onCancelEdit();
  };

  const submit = async () => {
    if (disabled) return;
    if (editing) {
      setSaving(true);
      const saved = await onSaveEdit(editing, text);
      setSaving(false);
      if (saved) cancelEdit();
      return;
    }
    if (trimmed.length > MESSAGE_MAX_LENGTH) return toastError(MESSAGE_TEXTS.tooLong(MESSAGE_MAX_LENGTH));
    let price: string | null = null;
    if (attachment.chosen && canSetPrice && !priceBlocked && priceText.trim()) {
      price = messagePriceOf(priceText);
      if (!price) return toastError(PAID_MESSAGE_TEXTS.priceRange(formatRand(MESSAGE_PRICE_MIN), formatRand(MESSAGE_PRICE_MAX)));
    }
    onSend({ content: trimmed, file: attachment.file, price, attachment: attachment.fromVault });
    setPriceText('');
    setText('');
    attachment.clear();
    textRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void submit();
    } else if (event.key === 'Escape' && (editing || replyTo)) {
      event.preventDefault();
      if (editing) cancelEdit();
      else onCancelReply();
    }
  };

  return (
    <div className="border-t border-border bg-surface/95 px-3 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur md:px-6">
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-2">
        <ComposerBanner editing={editing} onCancelEdit={cancelEdit} replyTo={replyTo} replyAuthor={replyAuthor} onCancelReply={onCancelReply} />
        {attachment.attached && !editing ? <AttachmentPreview attached={attachment.attached} onRemove={attachment.clear} /> : null}
        {attachment.chosen && canSetPrice && !editing ? <MessagePriceField blocked={priceBlocked} value={priceText} onChange={setPriceText} /> : null}
        <QuickEmojiBar onPick={insertEmoji} />

        <div className="flex items-end gap-2">
          {!editing ? <AttachButtons canUseVault={canSetPrice} onFile={attachment.chooseFile} onVaultFile={attachment.chooseFromVault} /> : null}
          <label htmlFor={textId} className="sr-only">
            Message
          </label>
          <textarea
            ref={textRef}
            id={textId}
            rows={1}
            value={text}
            placeholder="Type a message..."
            maxLength={MESSAGE_MAX_LENGTH}
            onChange={(event) => {
              setText(event.target.value);
              if (!editing && event.target.value.trim()) onTyping();
            }}
            onKeyDown={onKeyDown}
            className="max-h-40 min-h-11 flex-1 resize-none rounded-2xl border border-border bg-canvas px-4 py-2.5 text-[15px] leading-6 text-foreground placeholder:text-subtle outline-none focus-visible:border-accent focus-visible:ring-2 focus-visible:ring-accent/40 focus-visible:outline-none"
          />
          <Button
            size="icon"
            aria-label={editing ? 'Save message' : 'Send message'}
            title={editing ? 'Save' : 'Send'}
            disabled={disabled}
            loading={saving}
            onClick={() => void submit()}
            className="shrink-0"
          >
            {saving ? null : <SendHorizontal aria-hidden="true" className="size-5" />}
          </Button>
        </div>
      </div>
    </div>
  );
}
