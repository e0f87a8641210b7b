import { Lock } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { MESSAGE_MAX_LENGTH } from '../../../common/messages';
import { formatRand } from '../../../common/format';
import { messagePriceOf, type MassAudience } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useMaySell, VerifyToSellNotice } from '../../components/verify-to-sell';
import { MassAudiencePicker } from './mass-audience-picker';
import { FIELD } from './mass-field-classes';
import { MassFileField } from './mass-file-field';
import { MassPriceField } from './mass-price-field';
import { useMassAttachment } from './use-mass-attachment';

/**
 * /create?tab=messages (issue 27 item 4): a message to many, composed here (the audience with how
 * many it reaches, text, an optional file and price), confirmed, then delivered by the server in
 * batches to each fan's own thread; below, each one sent with Sent, Read, Unlocked and Revenue.
 */
export function MassMessagesScreen() {
  return (
    <div className="flex flex-col gap-10">
      <MassComposer />
      <MassMessageList />
    </div>
  );
}

function MassComposer() {
  const utils = trpc.useUtils();
  const audiences = trpc.massMessages.audiences.useQuery();
  const create = trpc.massMessages.create.useMutation();
  const [audience, setAudience] = useState<MassAudience>('active');
  const [tierId, setTierId] = useState<string>('');
  const [text, setText] = useState('');
  const [priceText, setPriceText] = useState('');
  const maySell = useMaySell();
  const { file, setFile, uploading, upload } = useMassAttachment();
  const [confirming, setConfirming] = useState(false);
  const clientId = useRef(crypto.randomUUID());
  const textId = useId();

  const counts = audiences.data;
  const countOf = (a: MassAudience): number | null => {
    if (!counts) return null;
    if (a === 'tier') return tierId ? (counts.tiers.find((t) => t.id === tierId)?.count ?? 0) : null;
    return counts[a];
  };
  const recipients = countOf(audience);
  const price = priceText.trim() ? messagePriceOf(priceText) : null;
  const priceInvalid = priceText.trim() !== '' && price === null;
  const fileReady = !file || file.status === 'ready';
  const canSend = (text.trim() !== '' || file !== null) && fileReady && !uploading && !priceInvalid && (audience !== 'tier' || tierId !== '') && (recipients ?? 0) > 0;

  const send = async () => {
    try {
      await create.mutateAsync({
        audience,
        tierId: audience === 'tier' ? tierId : null,
        content: text.trim() || undefined,
        attachmentId: file?.id ?? null,
        price: file && price ? price : null,
        clientId: clientId.current,
      });
      notify.success({ title: T.queued });
      clientId.current = crypto.randomUUID();
      setText('');
      setPriceText('');
      setFile(null);
      void utils.massMessages.list.invalidate();
    } catch (error) {
      notify.error({ title: 'Error', description: (error as Error).message });
    }
  };

  return (
    <section aria-labelledby="mass-new" className="flex flex-col gap-4 rounded-2xl border border-border bg-surface-raised p-4 sm:p-6">
      <h2 id="mass-new" className="text-lg font-semibold">
        {T.massNew}
      </h2>
      <MassAudiencePicker audience={audience} onAudience={setAudience} tierId={tierId} onTierId={setTierId} loading={audiences.isLoading} tiers={counts?.tiers} countOf={countOf} />
      <div className="flex flex-col gap-1">
        <label htmlFor={textId} className="text-sm font-medium">
          {T.textLabel}
        </label>
        <textarea id={textId} value={text} maxLength={MESSAGE_MAX_LENGTH} rows={4} onChange={(e) => setText(e.target.value)} className={FIELD} />
      </div>
      <MassFileField file={file} onFile={setFile} uploading={uploading} onUpload={(chosen) => void upload(chosen)} />
      {/* a price is a sale: not before the identity is verified (the server refuses it too) */}
      {maySell === false ? <VerifyToSellNotice sale="massMessagePrice" /> : <MassPriceField priceText={priceText} onPriceText={setPriceText} priceInvalid={priceInvalid} hasFile={file !== null} />}
      {recipients === 0 ? <p className="text-sm text-muted">{T.noRecipients}</p> : null}
      <div>
        <Button disabled={!canSend} onClick={() => setConfirming(true)}>
          {T.send}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={T.confirmTitle}
        description={T.confirmBody(recipients ?? 0)}
        confirmLabel={T.send}
        onConfirm={send}
      />
    </section>
  );
}

function MassMessageList() {
  const list = trpc.massMessages.list.useInfiniteQuery({}, { getNextPageParam: (page) => page.nextCursor, refetchInterval: 5_000 });
  if (list.isLoading) return <Skeleton className="h-40 w-full" />;
  if (list.isError) return <p className="text-sm text-muted">{T.failedToLoad}</p>;
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <section aria-labelledby="mass-list" className="flex flex-col gap-3">
      <h2 id="mass-list" className="text-lg font-semibold">
        {T.massTitle}
      </h2>
      {items.length === 0 ? <p className="text-sm text-muted">{T.empty}</p> : null}
      <ul className="flex flex-col gap-3">
        {items.map((m) => (
          <li key={m.id} data-testid="mass-message" className="rounded-2xl border border-border bg-surface-raised p-4">
            <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted">
              <span>
                {new Date(m.createdAt).toLocaleString('en-ZA', { dateStyle: 'medium', timeStyle: 'short' })} · {T.audience[m.audience]}
                {m.tierName ? ` (${m.tierName})` : ''}
              </span>
              <span className="rounded-full bg-surface px-2 py-0.5 font-medium text-foreground">{T.status[m.status]}</span>
            </div>
            <p className="mt-2 line-clamp-2 text-sm">{m.content ?? ''}</p>
            {m.status === 'failed' ? (
              <p className="mt-2 text-sm text-danger" data-testid="mass-stopped">
                {T.stopped(m.sent, Math.max(m.stoppedTotal ?? m.sent, m.sent))}
              </p>
            ) : null}
            {m.price ? (
              <p className="mt-1 flex items-center gap-1 text-xs text-muted">
                <Lock aria-hidden="true" className="size-3.5" />
                {formatRand(m.price)}
              </p>
            ) : null}
            <dl className="mt-3 grid grid-cols-2 gap-2 text-center sm:grid-cols-4">
              {(
                [
                  ['sent', T.sent, m.sent.toLocaleString('en-ZA')],
                  ['read', T.read, m.read.toLocaleString('en-ZA')],
                  ['unlocked', T.unlockedCount, m.unlocked.toLocaleString('en-ZA')],
                  ['revenue', T.revenue, formatRand(m.revenue)],
                ] as const
              ).map(([key, label, value]) => (
                <div key={key} className="rounded-lg bg-surface px-2 py-2">
                  <dt className="text-xs text-muted">{label}</dt>
                  <dd className="text-base font-semibold" data-testid={`mass-${key}`}>
                    {value}
                  </dd>
                </div>
              ))}
            </dl>
          </li>
        ))}
      </ul>
      {list.hasNextPage ? (
        <Button variant="secondary" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
          {T.loadMore}
        </Button>
      ) : null}
    </section>
  );
}
