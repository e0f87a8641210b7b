import { Download } from 'lucide-react';
import { DATA_EXPORT_TEXTS, SECURITY_TEXTS } from '../../../common/security';
import { Button, buttonClasses } from '../../components/ui/button';
import { formatLongDateTime } from '../../lib/format';
import { notify } from '../../lib/toast';
import { isClientError, trpc } from '../../lib/trpc';
import { Section, SectionSkeleton } from './section';

const sizeText = (bytes: number | null) => (bytes === null ? '' : bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * "Download my data": the worker builds a zip (profile, posts with their media as stored, comments,
 * messages, subscriptions, payments) and mails a link; the list below shows it as soon as it is
 * ready (polled while one is being prepared), or why it failed. Only this account can download it,
 * for 7 days; a new export replaces it.
 */
export function DataExportCard() {
  const utils = trpc.useUtils();
  const exports = trpc.account.exports.useQuery(undefined, {
    refetchInterval: (query) => (query.state.data?.some((e) => e.status === 'pending') ? 3_000 : false),
  });
  const request = trpc.account.requestExport.useMutation({
    onSuccess: () => {
      notify.success(SECURITY_TEXTS.exportRequested);
      void utils.account.exports.invalidate();
    },
    onError: (error) => notify.error({ title: 'Error', description: (isClientError(error) && error.message) || 'Could not start the export. Please try again.' }),
  });

  return (
    <Section
      id="export-heading"
      title="Download my data"
      description={DATA_EXPORT_TEXTS.description}
    >
      <div className="flex flex-col gap-4">
        <div>
          <Button onClick={() => request.mutate()} loading={request.isPending}>
            <Download aria-hidden="true" className="size-4" />
            Download my data
          </Button>
        </div>
        {!exports.data ? (
          <SectionSkeleton label="Loading your exports" rows={1} />
        ) : exports.data.length === 0 ? null : (
          <ul className="flex flex-col divide-y divide-border rounded-lg border border-border" aria-label="Your exports">
            {exports.data.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm">
                <span className="text-muted">
                  Asked for {formatLongDateTime(item.createdAt)}
                  {item.status === 'ready' ? ` · ${sizeText(item.byteSize)} · until ${formatLongDateTime(item.expiresAt)}` : ''}
                </span>
                {item.status === 'ready' && item.downloadUrl ? (
                  <a href={item.downloadUrl} download className={buttonClasses({ variant: 'secondary', size: 'sm' })}>
                    Download zip
                  </a>
                ) : item.status === 'pending' ? (
                  <span role="status" className="flex items-center gap-2 text-muted">
                    <span aria-hidden="true" className="size-2 animate-pulse rounded-full bg-accent" />
                    Preparing…
                  </span>
                ) : (
                  <span className="text-danger">Failed: {item.failureReason ?? DATA_EXPORT_TEXTS.failed}</span>
                )}
              </li>
            ))}
          </ul>
        )}
      </div>
    </Section>
  );
}
