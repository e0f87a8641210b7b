import { useEffect, useState } from 'react';
import { useRealtimeEvent } from '../../lib/realtime/listeners';

/** 'typing…': from the partner's typing event until its expiry or a message from them. */
export function usePartnerTyping(partnerId: string | null): boolean {
  const [typingUntil, setTypingUntil] = useState(0);
  const [now, setNow] = useState(0);
  useRealtimeEvent('typing', ({ userId, expiresInMs }) => {
    if (userId === partnerId) {
      setNow(Date.now());
      setTypingUntil(Date.now() + expiresInMs);
    }
  });
  useRealtimeEvent('message:new', ({ message }) => {
    if (message.senderId === partnerId) setTypingUntil(0);
  });
  useEffect(() => {
    if (typingUntil <= now) return;
    const timer = setTimeout(() => setNow(Date.now()), typingUntil - Date.now());
    return () => clearTimeout(timer);
  }, [typingUntil, now]);
  return typingUntil > now;
}
