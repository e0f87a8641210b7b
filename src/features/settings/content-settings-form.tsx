import { useState } from 'react';
import type { ContentSettingsDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/texts';
import { Loaded } from '../../components/load-states';
import { trpc } from '../../lib/trpc';
import { SettingsForm } from './settings-form';
import { ToggleRow } from './toggle-row';

/**
 * /settings/content: the creator's defaults for new uploads (the upload form starts from them)
 * and whether fans may comment on their posts (the server refuses new comments when closed).
 */
export function ContentSettingsForm() {
  const settings = trpc.settings.content.useQuery(undefined, { retry: 1 });
  return (
    <Loaded query={settings} loading="Loading content settings" failed={SETTINGS_TEXTS.contentLoadFailed}>
      {(data) => <ContentFields initial={data} />}
    </Loaded>
  );
}

function ContentFields({ initial }: { initial: ContentSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.saveContent.useMutation();
  const [values, setValues] = useState(initial);

  return (
    <SettingsForm
      label={SETTINGS_TEXTS.contentSettings}
      pending={save.isPending}
      failed={SETTINGS_TEXTS.contentSaveFailed}
      onSave={async () => {
        const result = await save.mutateAsync(values);
        utils.settings.content.setData(undefined, result.settings);
        return result;
      }}
    >
      <section className="flex flex-col gap-2">
        <h2 className="font-medium text-foreground">New uploads start as</h2>
        <div className="divide-y divide-border rounded-card border border-border bg-surface">
          <ToggleRow
            label="Paid content"
            hint="New uploads start as premium: only your subscribers see them in full."
            checked={values.defaultPaid}
            onChange={(on) => setValues((v) => ({ ...v, defaultPaid: on }))}
          />
          <ToggleRow
            label="NSFW"
            hint="New uploads start marked as not safe for work."
            checked={values.defaultNsfw}
            onChange={(on) => setValues((v) => ({ ...v, defaultNsfw: on }))}
          />
        </div>
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-medium text-foreground">Comments</h2>
        <div className="rounded-card border border-border bg-surface">
          <ToggleRow
            label="Allow comments"
            hint="When off, nobody but you can comment on your posts. Existing comments stay."
            checked={values.commentsOpen}
            onChange={(on) => setValues((v) => ({ ...v, commentsOpen: on }))}
          />
        </div>
      </section>
    </SettingsForm>
  );
}
