import { useEffect } from 'react';
import { trpc } from '../../lib/trpc';
import type { PostForm } from './use-post-upload';

/** Content Settings (/settings/content): a fresh form starts from the creator's Paid and NSFW defaults. */
export function useContentDefaults({ setValue }: PostForm, pristine: boolean) {
  const contentDefaults = trpc.settings.content.useQuery(undefined, { staleTime: 60_000 });
  useEffect(() => {
    const defaults = contentDefaults.data;
    if (!defaults || !pristine) return;
    setValue('isPaidContent', defaults.defaultPaid);
    setValue('isNsfw', defaults.defaultNsfw);
  }, [contentDefaults.data, pristine, setValue]);
}
