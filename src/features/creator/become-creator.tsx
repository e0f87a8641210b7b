import { CheckCircle2, Sparkles } from 'lucide-react';
import { useState } from 'react';
import { CREATE_TEXTS, CREATOR_TEXTS } from '../../../common/texts';
import { CallToActionBadge, CallToActionCard } from '../../components/call-to-action-card';
import { Button } from '../../components/ui/button';
import { notify } from '../../lib/toast';
import { errorCode, trpc } from '../../lib/trpc';

/**
 * The 'Become a Creator' page of /create for a signed-in non-creator (spec part 2 §2, §4, §8):
 * a benefits list and the button. The server sets is_creator; 'You are now a creator!' and
 * `onBecame` (the screen then shows its Content tab). Failure: 'Failed to become a creator.
 * Please try again.'; no session: 'You must be logged in to become a creator'.
 */
export function BecomeCreator({ onBecame }: { onBecame: () => void }) {
  const utils = trpc.useUtils();
  const become = trpc.creators.become.useMutation();
  const [pending, setPending] = useState(false);

  const onClick = async () => {
    setPending(true);
    try {
      await become.mutateAsync();
      utils.auth.me.setData(undefined, (me) => (me ? { ...me, isCreator: true } : me));
      void utils.auth.me.invalidate();
      // the profile screens show creator things now (tabs, drafts)
      void utils.profiles.invalidate();
      notify.success({ title: CREATOR_TEXTS.becameCreator });
      onBecame();
    } catch (error) {
      notify.error({
        title: 'Error',
        description: errorCode(error) === 'UNAUTHORIZED' ? CREATOR_TEXTS.signInRequired : CREATOR_TEXTS.becomeFailed,
      });
    } finally {
      setPending(false);
    }
  };

  return (
    <CallToActionCard headingId="become-creator-heading" tone="violet" className="px-6 py-10 text-center md:px-12 md:py-14">
      <CallToActionBadge tone="violet" className="mx-auto size-14">
        <Sparkles aria-hidden="true" className="size-6" />
      </CallToActionBadge>
      <h1 id="become-creator-heading" className="mt-5 text-3xl font-bold tracking-tight md:text-4xl">
        {CREATOR_TEXTS.becomeTitle}
      </h1>
      <p className="mx-auto mt-3 max-w-lg text-muted">{CREATE_TEXTS.becomeIntro}</p>
      <ul aria-label="Benefits" className="mx-auto mt-8 flex max-w-md flex-col gap-3 text-left">
        {CREATE_TEXTS.benefits.map((benefit) => (
          <li key={benefit} className="flex items-start gap-3">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-success" />
            <span className="text-foreground/90">{benefit}</span>
          </li>
        ))}
      </ul>
      <Button size="lg" className="mt-9" loading={pending} onClick={() => void onClick()}>
        {CREATOR_TEXTS.becomeButton}
      </Button>
    </CallToActionCard>
  );
}
