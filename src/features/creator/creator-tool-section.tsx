import { Plus } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Button } from '../../components/ui/button';
import { cn } from '../../lib/cn';
import { errorCode, isServerError, trpc } from '../../lib/trpc';

/**
 * What the Subscription Tiers tab's tools (trial links, offers, bundles) share: a section with
 * its heading, a line of what it does, an optional "New …" button opening its form in a card, and
 * its list; the creator's live tiers to choose from; the server's words for a refusal.
 */

export const DAY_MS = 24 * 60 * 60_000;
/** a date as an <input type="date"> reads and writes it (UTC) */
export const dateInput = (d: Date) => d.toISOString().slice(0, 10);

/** The server's words when it refused with a reason; `fallback` for anything unforeseen. */
export function serverText(error: unknown, fallback: string): string {
  return isServerError(error) && errorCode(error) !== 'INTERNAL_SERVER_ERROR' ? (error as Error).message : fallback;
}

/** The creator's tiers new fans can still choose (not archived). */
export function useLiveTiers() {
  const tiers = trpc.tiers.listMine.useQuery();
  return { query: tiers, live: (tiers.data ?? []).filter((t) => t.archivedAt === null) };
}

/** A select's options for the creator's live tiers, each with the price a new fan pays. */
export function TierOptions({ tiers }: { tiers: ReturnType<typeof useLiveTiers>['live'] }) {
  return tiers.map((t) => (
    <option key={t.id} value={t.id}>
      {t.name} (R{t.discountedPrice})
    </option>
  ));
}

/** A row of a tool's list: dashed once it no longer applies. */
export const toolRowClass = (live: boolean) => cn('flex flex-col gap-3 rounded-card border border-border bg-surface p-4 sm:flex-row sm:items-center md:p-5', !live && 'border-dashed');

export function CreatorToolSection({
  id,
  title,
  intro,
  addLabel,
  renderForm,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  /** the "New …" button; without it the section has no form of its own */
  addLabel?: string;
  renderForm?: (onDone: () => void) => ReactNode;
  children: ReactNode;
}) {
  const [adding, setAdding] = useState(false);
  const headingId = `${id}-heading`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 id={headingId} className="text-xl font-semibold tracking-tight">
            {title}
          </h2>
          <p className="text-sm text-muted">{intro}</p>
        </div>
        {adding || !addLabel ? null : (
          <Button variant="secondary" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" className="size-4" />
            {addLabel}
          </Button>
        )}
      </div>
      {adding && renderForm ? <div className="rounded-card border border-border bg-surface p-5 md:p-6">{renderForm(() => setAdding(false))}</div> : null}
      {children}
    </section>
  );
}

/**
 * A tool form's refusal that no field carries, said inside the form above its buttons (a toast in
 * the corner would cover the submit button); announced as an alert.
 */
export function FormFailure({ message }: { message: string | null }) {
  return message ? (
    <p role="alert" className="rounded-lg border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-foreground">
      {message}
    </p>
  ) : null;
}

/** A tool form's Cancel and submit buttons. */
export function FormActions({ onCancel, pending, submitLabel }: { onCancel?: () => void; pending: boolean; submitLabel: string }) {
  return (
    <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
      {onCancel ? (
        <Button variant="outline" onClick={onCancel} disabled={pending}>
          Cancel
        </Button>
      ) : null}
      <Button type="submit" loading={pending}>
        {submitLabel}
      </Button>
    </div>
  );
}
