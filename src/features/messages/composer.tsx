import { Images, Paperclip, PencilLine, Reply, SendHorizontal, X } from 'lucide-react';
import { useEffect, useEffectEvent, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { MessageAttachmentDto, MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import { MESSAGE_ATTACHMENT_ACCEPT, MESSAGE_MAX_LENGTH, QUICK_EMOJI } from '../../../common/messages';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { formatRand } from '../../../common/format';
import { MESSAGE_PRICE_MAX, MESSAGE_PRICE_MIN, messagePriceOf } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS } from '../../../common/paid-message-texts';
import { LazyVaultPicker } from '../../components/lazy-vault-picker';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';
import { attachmentKindOf, isTooLarge, MEDIA_LABELS } from './attachment-kind';
import { EMOJI_NAMES } from './message-bubble';
import { formatBytes } from './message-format';
import { MediaView } from './message-media';
import { VerifyToSellNotice } from '../../components/verify-to-sell';

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
  const [priceText, setPriceText] = useState('');
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  /** a file of the creator's vault, already a ready attachment on the server */
  const [fromVault, setFromVault] = useState<MessageAttachmentDto | null>(null);
  const [pickingVault, setPickingVault] = useState(false);
  const [preview, setPreview] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const textId = useId();
  const draftBeforeEdit = useRef('');

  // editing starts from the message's text; leaving it brings the draft back. Only when another
  // message is put in edit: the text typed meanwhile is read, not followed.
  const startEditing = useEffectEvent(() => {
    if (!editing) return;
    draftBeforeEdit.current = text;
    setText(editing.content ?? '');
    requestAnimationFrame(() => textRef.current?.focus());
  });
  const editingId = editing?.id;
  useEffect(() => {
    if (editingId) startEditing();
  }, [editingId]);
  useEffect(() => {
    if (replyTo) textRef.current?.focus();
  }, [replyTo]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);

  // grow with the text, up to a few lines
  useEffect(() => {
    const el = textRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);

  const trimmed = text.trim();
  const empty = editing ? false : !trimmed && !file && !fromVault;
  const disabled = empty || saving;

  const chooseFile = (chosen: File | undefined) => {
    if (fileRef.current) fileRef.current.value = '';
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

  const clearFile = () => {
    setFile(null);
    setPreview(null);
    setFromVault(null);
  };

  const cancelEdit = () => {
    setText(draftBeforeEdit.current);
    onCancelEdit();
  };

  const submit = async () => {
    if (disabled) return;
    if (editing) {
      setSaving(true);
      const saved = await onSaveEdit(editing, text);
      setSaving(false);
      if (saved) {
        setText(draftBeforeEdit.current);
        onCancelEdit();
      }
      return;
    }
    if (trimmed.length > MESSAGE_MAX_LENGTH) return toastError(MESSAGE_TEXTS.tooLong(MESSAGE_MAX_LENGTH));
    let price: string | null = null;
    if ((file || fromVault) && canSetPrice && !priceBlocked && priceText.trim()) {
      price = messagePriceOf(priceText);
      if (!price) return toastError(PAID_MESSAGE_TEXTS.priceRange(formatRand(MESSAGE_PRICE_MIN), formatRand(MESSAGE_PRICE_MAX)));
    }
    onSend({ content: trimmed, file, price, attachment: fromVault });
    setPriceText('');
    setText('');
    clearFile();
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

  const insertEmoji = (emoji: string) => {
    const el = textRef.current;
    const start = el?.selectionStart ?? text.length;
    const end = el?.selectionEnd ?? text.length;
    const next = text.slice(0, start) + emoji + text.slice(end);
    setText(next);
    requestAnimationFrame(() => {
      el?.focus();
      el?.setSelectionRange(start + emoji.length, start + emoji.length);
    });
  };

  const kind = file ? attachmentKindOf(file.name) : null;
  // the file chosen here, or one taken from the vault (already on the server)
  const attached =
    file && preview && kind
      ? { kind, src: preview, name: file.name, size: file.size, fromVault: false }
      : fromVault?.url
        ? { kind: fromVault.kind, src: fromVault.url, name: fromVault.fileName, size: fromVault.byteSize, fromVault: true }
        : null;

  return (
    <div className="border-t border-border bg-surface/95 px-3 pt-2 pb-[max(0.75rem,env(safe-area-inset-bottom))] backdrop-blur md:px-6">
      <div className="mx-auto flex w-full max-w-3xl flex-col gap-2">
        {editing ? (
          <Banner icon={<PencilLine aria-hidden="true" className="size-4" />} title="Edit message" text={editing.content ?? ''} onClose={cancelEdit} closeLabel="Cancel edit" />
        ) : replyTo ? (
          <Banner
            icon={<Reply aria-hidden="true" className="size-4" />}
            title={`Replying to ${replyAuthor}`}
            text={replyTo.content?.trim() || (replyTo.mediaType ? MEDIA_LABELS[replyTo.mediaType] : '')}
            onClose={onCancelReply}
            closeLabel="Cancel reply"
          />
        ) : null}

        {attached && !editing ? (
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
            <Button variant="ghost" size="icon" aria-label="Remove attachment" onClick={clearFile} className="size-8">
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
        ) : null}
        {(file || fromVault) && canSetPrice && !editing && priceBlocked ? <VerifyToSellNotice sale="messagePrice" className="text-xs" /> : null}
        {(file || fromVault) && canSetPrice && !editing && !priceBlocked ? (
          <label className="flex flex-wrap items-center gap-2 text-xs text-muted">
            <span className="font-medium text-foreground">{PAID_MESSAGE_TEXTS.priceLabel}</span>
            <span className="flex items-center gap-1">
              R
              <input
                inputMode="decimal"
                value={priceText}
                onChange={(e) => setPriceText(e.target.value)}
                placeholder="0.00"
                aria-describedby="message-price-hint"
                className="h-8 w-24 rounded-md border border-border bg-surface px-2 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
              />
            </span>
            <span id="message-price-hint">{PAID_MESSAGE_TEXTS.priceHint}</span>
          </label>
        ) : null}

        <div role="group" aria-label="Quick emoji" className="flex gap-0.5 overflow-x-auto">
          {QUICK_EMOJI.map((emoji) => (
            <button
              key={emoji}
              type="button"
              aria-label={`Insert ${EMOJI_NAMES[emoji]}`}
              onClick={() => insertEmoji(emoji)}
              className="flex size-9 shrink-0 items-center justify-center rounded-full text-lg transition-colors hover:bg-surface-hover"
            >
              {emoji}
            </button>
          ))}
        </div>

        <div className="flex items-end gap-2">
          {!editing ? (
            <>
              <input
                ref={fileRef}
                type="file"
                accept={MESSAGE_ATTACHMENT_ACCEPT}
                className="sr-only"
                tabIndex={-1}
                aria-label="Attach a file"
                data-testid="attachment-input"
                onChange={(event) => chooseFile(event.target.files?.[0])}
              />
              <Button variant="ghost" size="icon" aria-label="Attach a file" title="Attach a file" onClick={() => fileRef.current?.click()} className="shrink-0">
                <Paperclip aria-hidden="true" className="size-5" />
              </Button>
              {canSetPrice ? (
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
                  <LazyVaultPicker open={pickingVault} onOpenChange={setPickingVault} onPicked={chooseFromVault} />
                </>
              ) : null}
            </>
          ) : null}
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

function Banner({ icon, title, text, onClose, closeLabel }: { icon: React.ReactNode; title: string; text: string; onClose: () => void; closeLabel: string }) {
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
