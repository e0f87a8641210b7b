import { createContext, useContext, type ComponentType } from 'react';

/**
 * The Unlock button of a pay-per-view message (issue 27 item 3) lives with the purchases
 * (features/subscriptions), the bubble that shows it with the messages: the route puts the one into
 * the other through this slot, as it does the Tip button.
 */
export type MessageUnlockButton = ComponentType<{ messageId: string; price: string }>;
export const MessageUnlockSlot = createContext<MessageUnlockButton | null>(null);
export const useMessageUnlockButton = () => useContext(MessageUnlockSlot);
