import { ReceiptText, Search, Undo2 } from 'lucide-react';
import { z } from 'zod';
import { useEffect, useState, type FormEvent } from 'react';
import type { AdminPaymentDto } from '../../../common/billing-dtos';
import { formatRand } from '../../../common/format';
import { AdminRefundInput } from '../../../common/refund-schemas';
import { REFUND_TEXTS } from '../../../common/payment-texts';
import { AdminPage } from '../../components/admin-page';
import { AdminEarnings } from './admin-earnings';
import { EmptyState } from '../../components/empty-state';
import { LoadingPlaceholder } from '../../components/load-states';
import { PaymentLabelPill } from '../../components/payment-label';
import { Button } from '../../components/ui/button';
import { FormDialog } from '../../components/ui/dialog-parts';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { formatLongDateTime, isoString } from '../../lib/format';
import { notify } from '../../lib/toast';
import { useZodForm } from '../../lib/use-zod-form';
import { errorCode, isServerError, trpc } from '../../lib/trpc';

/**
 * /admin/payments (issue 22 §4): an admin looks up charges by a fan's username or e-mail, a
 * creator's username, a payment id or the provider's reference, and refunds one in full or in part.
 * Refund asks first, with the amount (at most what is left); the server checks it again, writes
 * the request and its job, and the provider is asked by that job. Admins only (the server refuses
 * anyone else; the page says so).
 */
export function AdminPayments({ query, onSearch }: { query: string; onSearch: (query: string) => void }) {
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);
  const results = trpc.payments.adminSearch.useQuery({ query }, { enabled: query.length > 0, staleTime: 0 });
  const forbidden = results.isError && errorCode(results.error) === 'FORBIDDEN';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim());
  };

  return (
    <AdminPage
      title="Payments"
      description="Find a charge and refund it in full or in part. Refunds go through the payment provider."
      forbidden={forbidden}
      operators="operators"
    >
      <AdminEarnings />
      <form role="search" aria-label="Payments" onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <FormField label="Fan, creator or payment reference">
            {({ invalid: _invalid, ...field }) => (
              <Input {...field} value={text} onChange={(e) => setText(e.target.value)} placeholder="username, e-mail, pi_… or in_…" maxLength={200} autoComplete="off" />
            )}
          </FormField>
        </div>
        <Button type="submit" className="sm:w-auto" disabled={text.trim().length === 0}>
          <Search aria-hidden="true" className="size-4" />
          Search
        </Button>
      </form>
      {query.length === 0 ? (
        <EmptyState icon={ReceiptText}>Search for a fan, a creator or a payment reference</EmptyState>
      ) : results.isError ? (
        <Button variant="secondary" onClick={() => void results.refetch()} className="self-start">
          Try again
        </Button>
      ) : !results.data ? (
        <LoadingPlaceholder label="Loading payments" rowClassName="h-28 w-full rounded-card" className="gap-3" />
      ) : results.data.length === 0 ? (
        <EmptyState icon={ReceiptText}>No payments found</EmptyState>
      ) : (
        <ul aria-label="Payments found" className="flex flex-col gap-3">
          {results.data.map((payment) => (
            <li key={payment.id}>
              <PaymentCard payment={payment} />
            </li>
          ))}
        </ul>
      )}
    </AdminPage>
  );
}

function PaymentCard({ payment }: { payment: AdminPaymentDto }) {
  return (
    <article data-testid="admin-payment" className="flex flex-col gap-3 rounded-card border border-border bg-surface p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="font-medium break-words">{payment.description || 'Subscription payment'}</p>
          <p className="text-xs text-subtle">
            <time dateTime={isoString(payment.createdAt)}>{formatLongDateTime(payment.createdAt)}</time> · {payment.provider}
            {payment.providerRef ? <span className="break-all"> · {payment.providerRef}</span> : null}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <span className="font-semibold tabular-nums">{formatRand(payment.amount)}</span>
          <PaymentLabelPill label={payment.label} />
        </div>
      </div>
      <dl className="grid grid-cols-1 gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        <div className="flex gap-2">
          <dt className="text-subtle">Fan:</dt>
          <dd className="min-w-0 break-all">{payment.fan ? `@${payment.fan.username} (${payment.fan.email})` : 'deleted account'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-subtle">Creator:</dt>
          <dd>{payment.creator ? `@${payment.creator.username}` : 'Premium'}</dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-subtle">Refunded:</dt>
          <dd className="tabular-nums">
            {formatRand(payment.refunded)}
            {Number(payment.pendingRefund) > 0 ? ` (+${formatRand(payment.pendingRefund)} pending)` : ''}
          </dd>
        </div>
        <div className="flex gap-2">
          <dt className="text-subtle">Left to refund:</dt>
          <dd className="tabular-nums">{formatRand(payment.refundable)}</dd>
        </div>
      </dl>
      {Number(payment.refundable) > 0 ? <RefundButton payment={payment} /> : null}
    </article>
  );
}

const RefundForm = z.object({ amount: AdminRefundInput.shape.amount });

/**
 * Refund, after a confirmation that names the amount (the whole of what is left unless changed).
 * One idempotency key per press: a retry of the same press is the same refund. A refusal (the
 * form's or the server's) stays in the dialog beside the amount.
 */
function RefundButton({ payment }: { payment: AdminPaymentDto }) {
  const utils = trpc.useUtils();
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState('');
  const form = useZodForm(RefundForm, { defaultValues: { amount: payment.refundable } });
  const refund = trpc.payments.adminRefund.useMutation();
  const pending = form.formState.isSubmitting;
  const typed = form.watch('amount').trim();

  const onOpenChange = (next: boolean) => {
    if (next) {
      form.reset({ amount: payment.refundable });
      setKey(crypto.randomUUID());
    }
    setOpen(next);
  };

  const onSubmit = form.submit(async ({ amount }) => {
    try {
      await refund.mutateAsync({ paymentId: payment.id, amount, idempotencyKey: key });
      notify.success({ title: 'Refund requested', description: REFUND_TEXTS.refundQueued });
      setOpen(false);
    } catch (e) {
      const message = isServerError(e) && e.data?.httpStatus !== 500 ? e.message : REFUND_TEXTS.refundFailed;
      if (!form.showServerErrors(e)) form.setError('amount', { type: 'server', message });
      notify.error({ title: 'Error', description: message });
    } finally {
      void utils.payments.adminSearch.invalidate();
    }
  });

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button variant="secondary" size="sm" className="self-start">
          Refund
        </Button>
      }
      onSubmit={onSubmit}
      pending={pending}
      icon={Undo2}
      title={`Refund ${payment.fan ? `@${payment.fan.username}` : 'this payment'}?`}
      description={
        <>
          {payment.description}: {formatRand(payment.amount)} paid, {formatRand(payment.refundable)} left to refund. The money goes back through{' '}
          {payment.provider === 'stripe' ? 'Stripe' : 'the built-in provider (no card was charged)'}. A refund in full ends the subscription it paid for at once.
          This cannot be undone.
        </>
      }
      submitLabel={/\d/.test(typed) && RefundForm.safeParse({ amount: typed }).success ? `Refund ${formatRand(RefundForm.parse({ amount: typed }).amount)}` : 'Refund'}
    >
      <FormField label="Amount (R)" error={form.error('amount')} hint={`At most ${formatRand(payment.refundable)}`}>
        {({ invalid, ...field }) => <Input {...field} {...form.field('amount')} invalid={invalid} inputMode="decimal" autoComplete="off" />}
      </FormField>
    </FormDialog>
  );
}
