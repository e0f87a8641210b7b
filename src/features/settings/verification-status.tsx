import { Link } from '@tanstack/react-router';
import { CheckCircle2, Fingerprint, Mail, Phone, XCircle, type LucideIcon } from 'lucide-react';
import { SELLING_TEXTS } from '../../../common/selling';
import type { VerificationStatusDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Loaded } from '../../components/load-states';
import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { trpc } from '../../lib/trpc';
import { IdentityVerifyPanel } from './identity-verify-panel';

/**
 * /settings/account/verification (spec part 2 §2, §3, §9): Email, Phone and Identity with
 * Verified / Not Verified badges read from the stored flags (never reset, unlike the spec's
 * screen); the e-mail one is set when the address is confirmed. Identity is what selling asks
 * (issue 47 item 1): how it was verified, or the way to verify it (IdentityVerifyPanel).
 * Get Verified → the method cards.
 */
export function VerificationStatus() {
  const status = trpc.settings.verification.useQuery(undefined, { retry: 1 });
  return (
    <Loaded query={status} loading="Loading verification status" failed={SETTINGS_TEXTS.verificationLoadFailed} toastId="verification-load">
      {(data) => <VerificationRows status={data} />}
    </Loaded>
  );
}

function identityHint(identity: VerificationStatusDto['identity']): string {
  if (identity.via === 'test') return SELLING_TEXTS.identityByTest;
  if (identity.via === 'provider') return SELLING_TEXTS.identityByProvider;
  return SELLING_TEXTS.identityNeededFor;
}

function VerificationRows({ status }: { status: VerificationStatusDto }) {
  const rows: { label: string; hint: string; verified: boolean; icon: LucideIcon }[] = [
    { label: 'Email Verification', hint: 'Confirmed by the link we e-mailed you', verified: status.isEmailVerified, icon: Mail },
    { label: 'Phone Verification', hint: 'A code sent to your phone', verified: status.isPhoneVerified, icon: Phone },
    { label: SELLING_TEXTS.identityLabel, hint: identityHint(status.identity), verified: status.identity.verified, icon: Fingerprint },
  ];
  return (
    <div className="flex flex-col gap-6">
      <ul className="divide-y divide-border rounded-card border border-border bg-surface">
        {rows.map((row) => (
          <li key={row.label} className="flex items-center gap-4 px-4 py-4">
            <row.icon aria-hidden="true" className="size-5 shrink-0 text-violet-300" />
            <span className="flex min-w-0 flex-1 flex-col">
              <span className="font-medium text-foreground">{row.label}</span>
              <span className="text-sm text-muted">{row.hint}</span>
            </span>
            {row.verified ? (
              <Badge variant="accent" className="text-emerald-300">
                <CheckCircle2 aria-hidden="true" className="size-3.5" />
                {SETTINGS_TEXTS.verified}
              </Badge>
            ) : (
              <Badge>
                <XCircle aria-hidden="true" className="size-3.5" />
                {SETTINGS_TEXTS.notVerified}
              </Badge>
            )}
          </li>
        ))}
      </ul>
      {status.identity.verified ? null : <IdentityVerifyPanel identity={status.identity} />}
      <div className="flex justify-end">
        <Link to="/settings/account/verification/get-verified" className={buttonClasses({ size: 'lg' })}>
          {SETTINGS_TEXTS.getVerified}
        </Link>
      </div>
    </div>
  );
}
