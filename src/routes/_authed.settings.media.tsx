import { createFileRoute } from '@tanstack/react-router';
import { MediaSettingsForm } from '../features/media-settings/media-settings-form';
import { usePageTitle } from '../lib/page-title';
import { useMe } from '../lib/session';

/** /settings/media, behind the `_authed` gate (spec part 2 §2: settings need a session). */
export const Route = createFileRoute('/_authed/settings/media')({
  loader: ({ context }) => {
    void context.trpcUtils.mediaSettings.get.prefetch();
  },
  component: MediaSettingsPage,
});

function MediaSettingsPage() {
  usePageTitle('Media Settings');
  const me = useMe();
  if (!me.data) return null;
  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-8 md:px-6 md:py-12">
      <h1 className="text-3xl font-bold tracking-tight">Media Settings</h1>
      <p className="mt-1 mb-8 text-muted">Choose how your watermark appears on the media you upload.</p>
      <MediaSettingsForm user={me.data} />
    </div>
  );
}
