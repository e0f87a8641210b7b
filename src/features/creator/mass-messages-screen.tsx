import { Images, Lock, Paperclip, X } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { VAULT_USE_TEXTS } from '../../../common/vault-use-texts';
import type { MessageAttachmentDto } from '../../../common/message-dtos';
import { MESSAGE_ATTACHMENT_ACCEPT, MESSAGE_ATTACHMENT_UPLOAD_PATH, MESSAGE_MAX_LENGTH } from '../../../common/messages';
import { formatRand } from '../../../common/format';
import { MASS_AUDIENCES, MESSAGE_PRICE_MAX, MESSAGE_PRICE_MIN, messagePriceOf, type MassAudience } from '../../../common/paid-message-schemas';
import { PAID_MESSAGE_TEXTS as T } from '../../../common/paid-message-texts';
import { LazyVaultPicker } from '../../components/lazy-vault-picker';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { useRealtimeEvent } from '../../lib/realtime/listeners';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';
import { useMaySell, VerifyToSellNotice } from '../../components/verify-to-sell';


const FIELD_BASE = 'rounded-lg border border-border bg-surface px-3 py-2 text-sm text-foreground focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none';
const FIELD = `w-full ${FIELD_BASE}`;

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
  const [file, setFile] = useState<MessageAttachmentDto | null>(null);
  const [uploading, setUploading] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [pickingVault, setPickingVault] = useState(false);
  const clientId = useRef(crypto.randomUUID());
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { text: useId(), price: useId(), tier: useId(), file: useId() };

  useRealtimeEvent('message:attachment', ({ attachment }) => {
    setFile((current) => (current && current.id === attachment.id ? attachment : current));
  });

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

  const upload = async (chosen: File) => {
    setUploading(true);
    try {
      const res = await fetch(`${MESSAGE_ATTACHMENT_UPLOAD_PATH}?name=${encodeURIComponent(chosen.name)}`, { method: 'POST', body: chosen, credentials: 'same-origin' });
      const body = (await res.json()) as { attachment?: MessageAttachmentDto; error?: { message: string } };
      if (!res.ok || !body.attachment) throw new Error(body.error?.message ?? T.failedToLoad);
      setFile(body.attachment);
    } catch (error) {
      notify.error({ title: 'Error', description: (error as Error).message });
    } finally {
      setUploading(false);
    }
  };

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
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium">{T.audienceLabel}</legend>
        {MASS_AUDIENCES.map((a) => {
          const n = countOf(a);
          return (
            <label key={a} className="flex cursor-pointer items-center justify-between gap-3 rounded-lg border border-border px-3 py-2 text-sm has-[:checked]:border-accent has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-accent">
              <span className="flex items-center gap-2">
                <input type="radio" name="audience" value={a} checked={audience === a} onChange={() => setAudience(a)} className="accent-[var(--color-accent)]" />
                {T.audience[a]}
              </span>
              <span className="shrink-0 whitespace-nowrap text-muted" data-testid={`audience-count-${a}`}>
                {audiences.isLoading ? <Skeleton className="h-4 w-16" /> : n === null ? '' : T.recipients(n)}
              </span>
            </label>
          );
        })}
        {audience === 'tier' ? (
          <div className="flex flex-col gap-1">
            <label htmlFor={ids.tier} className="text-sm font-medium">
              {T.tierLabel}
            </label>
            <select id={ids.tier} value={tierId} onChange={(e) => setTierId(e.target.value)} className={FIELD}>
              <option value="">—</option>
              {counts?.tiers.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name} ({T.recipients(t.count)})
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor={ids.text} className="text-sm font-medium">
          {T.textLabel}
        </label>
        <textarea id={ids.text} value={text} maxLength={MESSAGE_MAX_LENGTH} rows={4} onChange={(e) => setText(e.target.value)} className={FIELD} />
      </div>
      <div className="flex flex-col gap-2">
        <span className="text-sm font-medium" id={ids.file}>
          {T.fileLabel}
        </span>
        {file ? (
          <div className="flex items-center justify-between gap-2 rounded-lg border border-border px-3 py-2 text-sm" data-testid="mass-file">
            <span className="truncate">
              {file.fileName} {file.status === 'processing' ? `· ${T.processing}` : ''}
            </span>
            <Button variant="ghost" size="icon" aria-label={T.removeFile} onClick={() => setFile(null)} className="size-8">
              <X aria-hidden="true" className="size-4" />
            </Button>
          </div>
        ) : (
          <div className="flex flex-wrap gap-2">
            <input
              ref={fileInput}
              type="file"
              accept={MESSAGE_ATTACHMENT_ACCEPT}
              aria-labelledby={ids.file}
              className="sr-only"
              data-testid="mass-file-input"
              onChange={(e) => {
                const chosen = e.target.files?.[0];
                if (chosen) void upload(chosen);
                e.target.value = '';
              }}
            />
            <Button variant="secondary" size="sm" loading={uploading} onClick={() => fileInput.current?.click()}>
              <Paperclip aria-hidden="true" className="size-4" />
              {uploading ? T.uploading : T.addFile}
            </Button>
            <Button variant="secondary" size="sm" disabled={uploading} onClick={() => setPickingVault(true)}>
              <Images aria-hidden="true" className="size-4" />
              {VAULT_USE_TEXTS.fromVault}
            </Button>
            <LazyVaultPicker open={pickingVault} onOpenChange={setPickingVault} onPicked={setFile} />
          </div>
        )}
      </div>
      {/* a price is a sale: not before the identity is verified (the server refuses it too) */}
      {maySell === false ? (
        <VerifyToSellNotice sale="massMessagePrice" />
      ) : (
        <div className="flex flex-col gap-1">
          <label htmlFor={ids.price} className="text-sm font-medium">
            {T.priceLabel}
          </label>
          <div className="flex items-center gap-2">
            <span aria-hidden="true">R</span>
            <input
              id={ids.price}
              inputMode="decimal"
              disabled={!file}
              value={priceText}
              onChange={(e) => setPriceText(e.target.value)}
              placeholder="0.00"
              aria-invalid={priceInvalid || undefined}
              className={`${FIELD_BASE} w-32 disabled:opacity-50`}
            />
          </div>
          <p className="text-xs text-muted">
            {priceInvalid ? T.priceRange(formatRand(MESSAGE_PRICE_MIN), formatRand(MESSAGE_PRICE_MAX)) : file ? T.priceHint : T.priceNeedsFile}
          </p>
        </div>
      )}
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
