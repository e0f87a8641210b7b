import { createFileRoute } from '@tanstack/react-router';
import { VAULT_TEXTS } from '../../common/vault-texts';
import { VaultScreen } from '../features/vault/vault-screen';
import { usePageTitle } from '../lib/page-title';

/** /create/vault (issue 29 item 3), behind the `_authed` gate; creators only (the server refuses others). */
export const Route = createFileRoute('/_authed/create_/vault')({
  component: VaultPage,
});

function VaultPage() {
  usePageTitle(VAULT_TEXTS.title);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 md:px-6 md:py-12">
      <h1 className="text-3xl font-bold tracking-tight">{VAULT_TEXTS.title}</h1>
      <p className="mt-1 mb-6 text-muted">{VAULT_TEXTS.description}</p>
      <VaultScreen />
    </div>
  );
}
