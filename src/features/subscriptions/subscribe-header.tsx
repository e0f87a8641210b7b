import { Link } from '@tanstack/react-router';
import type { SubscribePageDto } from '../../../common/billing-dtos';
import { Avatar } from '../../components/ui/avatar';
import { NameWithBadge } from '../../components/name-with-badge';
import { ProviderNote } from './provider-note';

type Props = { creator: SubscribePageDto['creator']; name: string; hasTiers: boolean; provider: SubscribePageDto['provider'] };

/** The subscribe page's heading: the creator (linking to their profile), what subscribing does, and the payment provider. */
export function SubscribeHeader({ creator, name, hasTiers, provider }: Props) {
  return (
    <header className="flex flex-col gap-4 sm:flex-row sm:items-center">
      <Link to="/$username" params={{ username: creator.username }} className="shrink-0 self-start rounded-full" aria-label={`${name}’s profile`}>
        <Avatar src={creator.avatarUrl} name={name} size="lg" />
      </Link>
      <div className="min-w-0 flex-1">
        {/* one flow of text: a wrapped name keeps its badge after its last word (issue 47) */}
        <h1 className="text-2xl font-bold tracking-tight break-words md:text-3xl">
          <NameWithBadge text={`Subscribe to ${name}`} verified={creator.isVerified} />
        </h1>
        <p className="mt-1 text-muted">
          <Link to="/$username" params={{ username: creator.username }} className="underline-offset-4 hover:text-foreground hover:underline">
            @{creator.username}
          </Link>{' '}
          {hasTiers ? <> · Choose a plan to unlock premium posts and support {name} directly.</> : null}
        </p>
      </div>
      <ProviderNote provider={provider} className="self-start sm:self-center" />
    </header>
  );
}
