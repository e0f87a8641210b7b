import { Check, CheckCheck, Flag, MoreHorizontal, PencilLine, Reply, RotateCcw, Trash2, X } from 'lucide-react';
import type { MessageDto, MessageReplyDto } from '../../../common/message-dtos';
import { QUICK_EMOJI, type QuickEmoji } from '../../../common/messages';
import { Button } from '../../components/ui/button';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { cn } from '../../lib/cn';
import { MEDIA_LABELS } from './attachment-kind';
import { formatMessageTime } from './message-format';
import { AttachmentView, MediaView } from './message-media';
import { MessageText } from './message-text';
import { LockedAttachment, SaleMark } from './paid-message';
import type { PendingMessage } from './pending-messages';

export const EMOJI_NAMES: Record<QuickEmoji, string> = {
  '👍': 'thumbs up',
  '❤️': 'heart',
  '😊': 'smile',
  '😂': 'laugh',
  '🎉': 'party',
  '👏': 'clap',
  '🔥': 'fire',
  '🙌': 'raised hands',
};

function bubbleClasses(mine: boolean) {
  return cn(
    'flex max-w-[85%] flex-col gap-1.5 rounded-2xl px-3.5 py-2 shadow-sm sm:max-w-[70%]',
    mine ? 'rounded-br-md bg-accent-hover text-white' : 'rounded-bl-md border border-border bg-surface-raised text-foreground',
  );
}

/** The quoted message above a reply; it takes the reader to the original. */
function Quote({ reply, replyToId, authorName, onOpen }: { reply: MessageReplyDto | null; replyToId: string | null; authorName: string; onOpen?: (id: string) => void }) {
  if (!replyToId) return null;
  if (!reply) {
    return <p className="rounded-lg border-l-2 border-current/40 bg-black/15 px-2.5 py-1.5 text-xs italic opacity-80">Original message was deleted</p>;
  }
  const text = reply.content?.trim() || (reply.mediaType ? MEDIA_LABELS[reply.mediaType] : '');
  return (
    <button
      type="button"
      onClick={() => onOpen?.(reply.id)}
      data-testid="reply-quote"
      className="flex flex-col items-start gap-0.5 rounded-lg border-l-2 border-current/50 bg-black/15 px-2.5 py-1.5 text-left text-xs hover:bg-black/25"
    >
      <span className="font-semibold">{authorName}</span>
      <span className="line-clamp-2 opacity-85">{text}</span>
    </button>
  );
}

function Reactions({ message, onReact }: { message: MessageDto; onReact: (emoji: QuickEmoji) => void }) {
  if (message.reactions.length === 0) return null;
  return (
    <ul aria-label="Reactions" className="flex flex-wrap gap-1">
      {message.reactions.map((r) => (
        <li key={r.emoji}>
          <button
            type="button"
            aria-pressed={r.mine}
            aria-label={`${EMOJI_NAMES[r.emoji as QuickEmoji] ?? r.emoji}: ${r.count}`}
            onClick={() => onReact(r.emoji as QuickEmoji)}
            data-testid="reaction"
            className={cn(
              'inline-flex h-7 items-center gap-1 rounded-full border px-2 text-sm transition-colors',
              r.mine ? 'border-accent/60 bg-accent-soft text-foreground' : 'border-border bg-surface text-muted hover:text-foreground',
            )}
          >
            <span aria-hidden="true">{r.emoji}</span>
            <span aria-hidden="true" className="text-xs font-semibold">
              {r.count}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

export interface BubbleActions {
  onReply: (message: MessageDto) => void;
  onEdit: (message: MessageDto) => void;
  onDelete: (message: MessageDto) => void;
  onReport: (message: MessageDto) => void;
  onReact: (message: MessageDto, emoji: QuickEmoji) => void;
  onOpenQuote: (messageId: string) => void;
}

/** One message of the thread: quote, file, text, time, checks (own), reactions, and its menu. */
export function MessageBubble({
  message,
  mine,
  myName,
  partnerName,
  highlighted,
  actions,
  canWrite,
}: {
  message: MessageDto;
  mine: boolean;
  myName: string;
  partnerName: string;
  highlighted: boolean;
  actions: BubbleActions;
  canWrite: boolean;
}) {
  const quoteAuthor = message.replyTo ? (message.replyTo.senderId === message.senderId ? (mine ? myName : partnerName) : mine ? partnerName : myName) : '';
  const read = !!message.readAt;
  return (
    <div
      data-message-id={message.id}
      data-testid="message"
      data-mine={mine}
      data-highlighted={highlighted || undefined}
      className={cn('group flex flex-col gap-1 rounded-2xl px-1 py-0.5 transition-colors duration-500', mine ? 'items-end' : 'items-start', highlighted && 'bg-accent/20')}
    >
      <div className={cn('flex w-full items-center gap-1', mine ? 'flex-row-reverse' : 'flex-row')}>
        <div className={bubbleClasses(mine)}>
          <Quote reply={message.replyTo} replyToId={message.replyToId} authorName={quoteAuthor} onOpen={actions.onOpenQuote} />
          {message.attachment && message.locked && message.price ? (
            <LockedAttachment message={{ ...message, price: message.price }} />
          ) : message.attachment ? (
            <AttachmentView attachment={message.attachment} autoplay={!message.replyToId} />
          ) : null}
          {mine && message.price ? <SaleMark message={{ ...message, price: message.price }} mine={mine} /> : null}
          {message.content ? <MessageText text={message.content} /> : null}
          <span className={cn('flex items-center gap-1 self-end text-[11px]', mine ? 'text-white' : 'text-subtle')}>
            {message.editedAt ? <span>edited</span> : null}
            <time dateTime={message.createdAt}>{formatMessageTime(message.createdAt)}</time>
            {mine ? (
              read ? (
                <CheckCheck role="img" aria-label="Read" data-testid="read-mark" className="size-3.5" />
              ) : (
                <Check role="img" aria-label="Sent" data-testid="sent-mark" className="size-3.5" />
              )
            ) : null}
          </span>
        </div>
        <MessageMenu message={message} mine={mine} actions={actions} canWrite={canWrite} />
      </div>
      <Reactions message={message} onReact={(emoji) => actions.onReact(message, emoji)} />
    </div>
  );
}

function MessageMenu({ message, mine, actions, canWrite }: { message: MessageDto; mine: boolean; actions: BubbleActions; canWrite: boolean }) {
  return (
    <DropdownMenu modal={false}>
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          aria-label="Message actions"
          className="size-8 shrink-0 opacity-100 md:opacity-0 md:group-hover:opacity-100 md:focus-visible:opacity-100 md:data-[state=open]:opacity-100"
        >
          <MoreHorizontal aria-hidden="true" className="size-4" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align={mine ? 'end' : 'start'} className="min-w-52">
        <div role="group" aria-label="React" className="flex flex-wrap gap-0.5 px-1 pb-1">
          {QUICK_EMOJI.map((emoji) => (
            <DropdownMenuItem
              key={emoji}
              aria-label={`React with ${EMOJI_NAMES[emoji]}`}
              onSelect={() => actions.onReact(message, emoji)}
              className="size-9 justify-center p-0 text-lg"
            >
              {emoji}
            </DropdownMenuItem>
          ))}
        </div>
        <DropdownMenuSeparator />
        {canWrite ? (
          <DropdownMenuItem onSelect={() => actions.onReply(message)}>
            <Reply aria-hidden="true" className="size-4" />
            Reply
          </DropdownMenuItem>
        ) : null}
        {mine && canWrite && message.content ? (
          <DropdownMenuItem onSelect={() => actions.onEdit(message)}>
            <PencilLine aria-hidden="true" className="size-4" />
            Edit
          </DropdownMenuItem>
        ) : null}
        {mine ? (
          <DropdownMenuItem tone="danger" onSelect={() => actions.onDelete(message)}>
            <Trash2 aria-hidden="true" className="size-4" />
            Delete
          </DropdownMenuItem>
        ) : (
          <DropdownMenuItem tone="danger" onSelect={() => actions.onReport(message)}>
            <Flag aria-hidden="true" className="size-4" />
            Report
          </DropdownMenuItem>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** A message on its way: the preview, the upload's progress, then Sending…, or Failed with Retry. */
export function PendingBubble({ item, onRetry, onDiscard }: { item: PendingMessage; onRetry: () => void; onDiscard: () => void }) {
  const percent = Math.round(item.progress * 100);
  return (
    <div data-testid="pending-message" data-status={item.status} className="flex flex-col items-end gap-1 px-1 py-0.5">
      <div className={cn(bubbleClasses(true), item.status === 'failed' ? 'opacity-90 ring-2 ring-rose-400/70' : 'opacity-75')}>
        {item.replyTo ? (
          <p className="rounded-lg border-l-2 border-current/50 bg-black/15 px-2.5 py-1.5 text-xs opacity-85">
            {item.replyTo.content?.trim() || (item.replyTo.mediaType ? MEDIA_LABELS[item.replyTo.mediaType] : '')}
          </p>
        ) : null}
        {item.file && item.previewUrl && item.kind ? <MediaView kind={item.kind} src={item.previewUrl} name={item.file.name} size={item.file.size} autoplay={false} /> : null}
        {item.status === 'uploading' ? (
          <div
            role="progressbar"
            aria-label="Upload progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            className="h-1.5 w-full overflow-hidden rounded-full bg-black/30"
          >
            <div className="h-full rounded-full bg-white transition-[width]" style={{ width: `${percent}%` }} />
          </div>
        ) : null}
        {item.content ? <MessageText text={item.content} /> : null}
        <span className="self-end text-[11px] text-white">
          {item.status === 'uploading' ? `Uploading ${percent}%` : item.status === 'sending' ? 'Sending…' : 'Not sent'}
        </span>
      </div>
      {item.status === 'failed' ? (
        <div className="flex items-center gap-2 text-xs text-rose-300">
          <span role="alert">{item.error ?? 'Failed to send message'}</span>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            <RotateCcw aria-hidden="true" className="size-3.5" />
            Retry
          </Button>
          <Button size="sm" variant="ghost" onClick={onDiscard} aria-label="Discard message">
            <X aria-hidden="true" className="size-3.5" />
          </Button>
        </div>
      ) : null}
    </div>
  );
}

