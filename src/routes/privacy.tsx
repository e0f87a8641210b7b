import { createFileRoute, Link } from '@tanstack/react-router';
import { ArrowLeft } from 'lucide-react';
import { buttonClasses } from '../components/ui/button';
import { PrivacyPolicy } from '../features/legal/privacy-policy';
import { usePageTitle } from '../lib/page-title';

export const Route = createFileRoute('/privacy')({
  component: PrivacyPage,
});

function PrivacyPage() {
  usePageTitle('Privacy Policy');
  return (
    <PrivacyPolicy
      backToHome={
        <Link to="/" className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to Home
        </Link>
      }
    />
  );
}
