import { NOTIFICATION_KIND_INFO, NOTIFICATION_KINDS, type ChannelChoice, type NotificationChannel, type NotificationKind } from '../../../common/notifications';
import { Skeleton } from '../../components/ui/skeleton';
import { notify } from '../../lib/toast';
import { trpc } from '../../lib/trpc';

const COLUMNS: { key: NotificationChannel; label: string }[] = [
  { key: 'inApp', label: 'In-app' },
  { key: 'email', label: 'E-mail' },
  { key: 'push', label: 'Push' },
];

/**
 * The kinds × (in-app, e-mail, push) table under the three master switches: each box saves at once.
 * E-mail and push go only while their master switch is on too (the server decides, domain/notifications/channels.ts).
 */
export function NotificationMatrix({ isCreator }: { isCreator: boolean }) {
  const utils = trpc.useUtils();
  const prefs = trpc.notifications.preferences.useQuery();
  const save = trpc.notifications.savePreference.useMutation({
    onSuccess: (data) => utils.notifications.preferences.setData(undefined, data),
    onError: () => notify.error({ title: 'Error', description: 'Could not save this notification setting.' }),
  });
  if (prefs.isPending) return <Skeleton className="h-64 rounded-card" />;
  if (!prefs.data) return null;
  const kinds = NOTIFICATION_KINDS.filter((k) => isCreator || NOTIFICATION_KIND_INFO[k].audience !== 'creator');
  const change = (kind: NotificationKind, current: ChannelChoice, channel: NotificationChannel, on: boolean) =>
    save.mutate({ kind, ...current, [channel]: on });

  return (
    <section aria-labelledby="kinds-heading" className="flex flex-col gap-2">
      <h2 id="kinds-heading" className="text-lg font-semibold text-foreground">
        What you are told about
      </h2>
      <div className="overflow-x-auto rounded-card border border-border bg-surface">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-muted">
              <th scope="col" className="px-3 py-3 font-medium sm:px-4">
                Notification
              </th>
              {COLUMNS.map((c) => (
                <th key={c.key} scope="col" className="whitespace-nowrap px-2 py-3 text-center font-medium sm:px-3">
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {kinds.map((kind) => {
              const current = prefs.data[kind];
              const info = NOTIFICATION_KIND_INFO[kind];
              return (
                <tr key={kind}>
                  <th scope="row" className="px-3 py-3 text-left font-normal text-foreground sm:px-4">
                    {info.label}
                  </th>
                  {COLUMNS.map((c) => (
                    <td key={c.key} className="px-2 py-1 text-center sm:px-3">
                      {c.key === 'email' && !info.hasEmail ? (
                        <span className="text-subtle" aria-label={`${info.label}: no e-mail`}>
                          –
                        </span>
                      ) : (
                        <input
                          type="checkbox"
                          className="size-5 cursor-pointer accent-pink"
                          aria-label={`${info.label}: ${c.label}`}
                          checked={current[c.key]}
                          onChange={(e) => change(kind, current, c.key, e.target.checked)}
                        />
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
