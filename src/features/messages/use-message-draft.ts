import { useEffect, useEffectEvent, useRef, useState } from 'react';
import type { MessageDto, MessageReplyDto } from '../../../common/message-dtos';

/**
 * The composer's text. Editing starts from the message's text; leaving the edit brings the draft
 * back (only when another message is put in edit: the text typed meanwhile is read, not followed).
 * A reply takes the focus; the box grows with the text, up to a few lines.
 */
export function useMessageDraft(editing: MessageDto | null, replyTo: MessageReplyDto | null) {
  const [text, setText] = useState('');
  const textRef = useRef<HTMLTextAreaElement>(null);
  const draftBeforeEdit = useRef('');

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

  useEffect(() => {
    const el = textRef.current;
    if (!el) return;
    el.style.height = 'auto';
    el.style.height = `${Math.min(el.scrollHeight, 160)}px`;
  }, [text]);

  /** Puts the emoji where the caret is (over the selection) and the caret after it. */
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

  const restoreDraft = () => setText(draftBeforeEdit.current);

  return { text, setText, textRef, insertEmoji, restoreDraft };
}
