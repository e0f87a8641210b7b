import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import { ACCOUNT_TEXTS } from '../../../common/security';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Switch } from '../../components/ui/switch';
import { markSigningOut } from '../../lib/session';
import { notify } from '../../lib/toast';
import { isClientError, serverValidation, trpc, type RouterOutputs } from '../../lib/trpc';
import { DataExportCard } from './data-export-card';
import { DeletionBalanceNote } from './deletion-balance-note';
import { forgetIdentity } from './forget-identity';
import { IdentityFields, readIdentity, useIdentityForm } from './identity-fields';
import { Section, SectionSkeleton } from './section';

type Management = RouterOutputs['account']['management'];

/** /settings/account/management (spec part 2 §2): Hide Account, Delete All Data, Delete Account; and Download my data. */
export function AccountManagement() {
  const management = trpc.account.management.useQuery();
  if (!management.data) return <SectionSkeleton label="Loading account settings" rows={3} />;
  return (
    <div className="flex flex-col gap-6">
      <HideAccount hidden={management.data.hidden} />
      <DataExportCard />
      <DangerZone state={management.data} />
    </div>
  );
}

function HideAccount({ hidden }: { hidden: boolean }) {
  const utils = trpc.useUtils();
  const setHidden = trpc.account.setHidden.useMutation({
    onSuccess: ({ hidden: now }) => {
      utils.account.management.setData(undefined, (old) => (old ? { ...old, hidden: now } : old));
      void utils.profiles.invalidate();
      notify.success({ title: now ? ACCOUNT_TEXTS.hidden : ACCOUNT_TEXTS.visible });
    },
    onError: () => notify.error({ title: 'Error', description: ACCOUNT_TEXTS.hideFailed }),
  });
  return (
    <Section id="hide-heading" title="Hide Account" description="A hidden profile cannot be found or seen by anyone else: not in the feed, Explore or search, and its page reads as not found.">
      <div className="flex items-center justify-between gap-4">
        <label htmlFor="hide-account" className="font-medium text-foreground">
          {hidden ? 'Your account is hidden' : 'Your account is visible'}
        </label>
        <Switch id="hide-account" aria-label="Hide Account" checked={hidden} disabled={setHidden.isPending} onCheckedChange={(on) => setHidden.mutate({ hidden: on })} />
      </div>
    </Section>
  );
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function lossList(state: Management): string {
  const c = state.counts;
  const parts = [
    plural(c.posts, 'post', 'posts') + ' with their files, likes and comments',
    plural(c.messages, 'message', 'messages') + ' (both sides of every conversation)',
    'your likes, bookmarks and comments',
    plural(c.activeSubscriptions, 'subscription', 'subscriptions') + ' of yours, ended without refund',
  ];
  if (state.isCreator) parts.push(`your tiers and ${plural(c.activeSubscribers, 'subscriber', 'subscribers')}: they lose access to your premium posts at once and are not charged again`);
  return parts.join('; ');
}

function DangerZone({ state }: { state: Management }) {
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();
  const navigate = useNavigate();
  const dataForm = useIdentityForm();
  const accountForm = useIdentityForm();
  const [dataOpen, setDataOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  // a refused password keeps the dialog open (ConfirmDialog closes once its action settles)
  const keepOpen = useRef(false);
  const deleteData = trpc.account.deleteAllData.useMutation();
  const deleteAccount = trpc.account.deleteAccount.useMutation();

  const refused = (form: typeof dataForm, error: unknown, fallback: string) => {
    const validation = form.showServerErrors(error);
    keepOpen.current = !!validation;
    notify.error({ title: 'Error', description: validation?.messages[0] ?? ((isClientError(error) && (error as Error).message) || fallback) });
  };

  const onDeleteData = async () => {
    const input = await readIdentity(dataForm);
    if (!input) return void (keepOpen.current = true);
    try {
      await deleteData.mutateAsync(input);
      notify.success({ title: ACCOUNT_TEXTS.dataDeleted });
      await queryClient.invalidateQueries();
    } catch (error) {
      refused(dataForm, error, ACCOUNT_TEXTS.deleteDataFailed);
    }
  };

  const onDeleteAccount = async () => {
    const input = await readIdentity(accountForm);
    if (!input) return void (keepOpen.current = true);
    try {
      markSigningOut(true);
      await deleteAccount.mutateAsync(input);
      forgetIdentity(queryClient, utils);
      notify.success({ title: ACCOUNT_TEXTS.accountDeleted });
      await navigate({ to: '/', replace: true });
    } catch (error) {
      markSigningOut(false);
      if (serverValidation(error)) refused(accountForm, error, ACCOUNT_TEXTS.deleteAccountFailed);
      else notify.error({ title: 'Error', description: ACCOUNT_TEXTS.deleteAccountFailed });
    }
  };

  const onOpenChange = (set: (open: boolean) => void) => (next: boolean) => {
    if (!next && keepOpen.current) {
      keepOpen.current = false;
      return;
    }
    set(next);
  };

  return (
    <Section id="danger-heading" title="Delete" description="These cannot be undone. We ask for your password first.">
      <div className="flex flex-col gap-5">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">Delete All Data: remove everything you made and every relation, keep the account and your username.</p>
          <Button variant="danger" className="shrink-0" onClick={() => setDataOpen(true)}>
            Delete All Data
          </Button>
        </div>
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">Delete Account: all of that, your settings and the account itself. You are signed out everywhere.</p>
          <Button variant="danger" className="shrink-0" onClick={() => setAccountOpen(true)}>
            Delete Account
          </Button>
        </div>
      </div>
      <ConfirmDialog
        open={dataOpen}
        onOpenChange={onOpenChange(setDataOpen)}
        title="Delete all your data?"
        description={`This deletes ${lossList(state)}, your media settings and exports, and blanks your bio, links, avatar, categories and premium badge. Your account and username stay.`}
        confirmLabel="Delete All Data"
        onConfirm={onDeleteData}
      >
        <IdentityFields form={dataForm} withCode={state.twoFactorEnabled} open={dataOpen} />
      </ConfirmDialog>
      <ConfirmDialog
        open={accountOpen}
        onOpenChange={onOpenChange(setAccountOpen)}
        title="Delete your account?"
        description={`This deletes ${lossList(state)}, your profile, avatar, settings and every session, then the account itself. You cannot sign in again with it.`}
        confirmLabel="Delete Account"
        onConfirm={onDeleteAccount}
      >
        <DeletionBalanceNote enabled={accountOpen && state.isCreator} />
        <IdentityFields form={accountForm} withCode={state.twoFactorEnabled} open={accountOpen} />
      </ConfirmDialog>
    </Section>
  );
}
