import { useState } from 'react';
import type { ContentSettingsDto } from '../../../common/settings';
import { SETTINGS_TEXTS } from '../../../common/settings-texts';
import { Loaded } from '../../components/load-states';
import { trpc } from '../../lib/trpc';
import { SettingsForm } from './settings-form';
import { ToggleRows, type ToggleSpec } from './toggle-row';

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

const UPLOAD_DEFAULTS: readonly ToggleSpec<keyof ContentSettingsDto>[] = [
  { key: 'defaultPaid', label: 'Paid content', hint: 'New uploads start as premium: only your subscribers see them in full.' },
  { key: 'defaultNsfw', label: 'NSFW', hint: 'New uploads start marked as not safe for work.' },
];
const COMMENTS: readonly ToggleSpec<keyof ContentSettingsDto>[] = [
  { key: 'commentsOpen', label: 'Allow comments', hint: 'When off, nobody but you can comment on your posts. Existing comments stay.' },
];

function ContentFields({ initial }: { initial: ContentSettingsDto }) {
  const utils = trpc.useUtils();
  const save = trpc.settings.saveContent.useMutation();
  const [values, setValues] = useState(initial);
  const set = (key: keyof ContentSettingsDto, on: boolean) => setValues((v) => ({ ...v, [key]: on }));

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
        <ToggleRows rows={UPLOAD_DEFAULTS} values={values} onChange={set} />
      </section>
      <section className="flex flex-col gap-2">
        <h2 className="font-medium text-foreground">Comments</h2>
        <ToggleRows rows={COMMENTS} values={values} onChange={set} />
      </section>
    </SettingsForm>
  );
}
