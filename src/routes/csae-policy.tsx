import { createFileRoute } from '@tanstack/react-router';
import { CsaePolicy } from '../features/legal/csae-policy';
import { usePageTitle } from '../lib/page-title';

export const Route = createFileRoute('/csae-policy')({
  component: CsaePolicyPage,
});

function CsaePolicyPage() {
  usePageTitle('CSAE Policy');
  return <CsaePolicy />;
}
