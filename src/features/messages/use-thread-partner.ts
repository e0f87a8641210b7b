import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import { MESSAGE_TEXTS } from '../../../common/texts';
import { usePageTitle } from '../../lib/page-title';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';
import { partnerOptions, setOpenThread } from './messages-queries';

/**
 * The person at the other end of /messages/{username}: their profile names the page; an unknown,
 * hidden or private one (the server says no more) gives the toast, then the way back to the list.
 * While the thread is open, live events for it are this tab's (messages-queries.ts).
 */
export function useThreadPartner(username: string) {
  const navigate = useNavigate();
  const partner = trpc.messages.partner.useQuery({ username }, partnerOptions);
  const profile = partner.data?.profile;
  const partnerName = profile ? profile.displayName || profile.username : username;
  usePageTitle(profile ? partnerName : MESSAGE_TEXTS.heading);

  useEffect(() => {
    if (!partner.isError) return;
    notify.error({ title: 'Error', description: errorCode(partner.error) === 'NOT_FOUND' ? MESSAGE_TEXTS.userNotFound : MESSAGE_TEXTS.profileLoadFailed });
    void navigate({ to: '/messages', replace: true });
  }, [partner.isError, partner.error, navigate]);

  const partnerId = profile?.id ?? null;
  useEffect(() => {
    setOpenThread({ username, partnerId });
    return () => setOpenThread(null);
  }, [username, partnerId]);

  return { partner, profile, partnerName, partnerId };
}
