import { createFileRoute } from '@tanstack/react-router';
import { TermsOfService } from '../features/legal/terms-of-service';
import { usePageTitle } from '../lib/page-title';

export const Route = createFileRoute('/terms')({
  component: TermsPage,
});

function TermsPage() {
  usePageTitle('Terms and Conditions');
  return <TermsOfService />;
}
