import { Fingerprint, Mail, Phone, type LucideIcon } from 'lucide-react';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';

const METHODS: { title: string; badge: string; description: string; icon: LucideIcon }[] = [
  { title: 'Email', badge: 'Basic', description: 'Confirm that you own your e-mail address.', icon: Mail },
  { title: 'Phone', badge: 'Recommended', description: 'Confirm your phone number with a code.', icon: Phone },
  { title: 'Identity with government ID', badge: 'Advanced', description: 'Confirm who you are with an official ID document.', icon: Fingerprint },
];

/**
 * /settings/account/verification/get-verified (spec part 2 §2, §9): three method cards with the
 * badges Basic, Recommended and Advanced. Start Verification does nothing visible, as the spec says.
 */
export function GetVerified() {
  return (
    <ul className="grid gap-4 md:grid-cols-3">
      {METHODS.map((method) => (
        <li key={method.title} className="flex flex-col gap-3 rounded-card border border-border bg-surface p-5">
          <div className="flex items-center justify-between gap-2">
            <method.icon aria-hidden="true" className="size-6 text-violet-300" />
            <Badge variant="accent">{method.badge}</Badge>
          </div>
          <h2 className="font-semibold text-foreground">{method.title}</h2>
          <p className="flex-1 text-sm text-muted">{method.description}</p>
          {/* the spec: Start Verification does nothing visible */}
          <Button type="button" variant="secondary" onClick={() => undefined}>
            {SETTINGS_TEXTS.startVerification}
          </Button>
        </li>
      ))}
    </ul>
  );
}
