import type { Messaging } from '../../../common/message-dtos';
import { Button } from '../../components/ui/button';

/** In place of the composer when this conversation cannot take new messages (issue 12 §6). */
export function MessagingUnavailable({ messaging, onUnblock }: { messaging: Messaging; onUnblock: () => Promise<void> }) {
  return (
    <div data-testid="messaging-unavailable" className="flex flex-col items-center gap-2 border-t border-border bg-surface px-4 py-4 text-center text-sm text-muted sm:flex-row sm:justify-center">
      {messaging === 'blocked-by-you' ? (
        <>
          <span>You blocked this user. Unblock them to send messages.</span>
          <Button size="sm" variant="secondary" onClick={() => void onUnblock()}>
            Unblock
          </Button>
        </>
      ) : (
        <span>Messaging is unavailable in this conversation.</span>
      )}
    </div>
  );
}
