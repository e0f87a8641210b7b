import { ExternalLink, Link2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { SOCIAL_KINDS, type SocialKind } from '../../../common/links';
import { PROFILE_LIMITS } from '../../../common/limits';
import { AddLinkInput, UpdateSocialLinksInput } from '../../../common/profile-schemas';
import { LINK_TEXTS } from '../../../common/texts';
import { EmptyState } from '../../components/empty-state';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { FormField } from '../../components/ui/form-field';
import { Input } from '../../components/ui/input';
import { useZodForm } from '../../lib/use-zod-form';
import type { Profile } from './profile-queries';
import { SOCIAL_META, SocialLinkList, socialLinkItems } from './social-links';
import { useProfileLinks, type NewLink, type SocialLinksValues } from './use-profile-links';

function hostOf(url: string): string {
  try {
    return new URL(url).host.replace(/^www\./, '');
  } catch {
    return url;
  }
}

/**
 * The Links tab (spec part 1 §2, §3, §5): the creator's custom links and social links, each
 * opening in a new tab. The owner adds links (title and URL), deletes them, and edits the social
 * links (twitter and instagram usernames, youtube and website addresses).
 */
export function LinksTab({ profile }: { profile: Profile }) {
  const isOwner = profile.viewer.isOwner;
  const links = useProfileLinks(profile.username);
  const [deleting, setDeleting] = useState<number | null>(null);
  const [editingSocial, setEditingSocial] = useState(false);
  const editSocialRef = useRef<HTMLButtonElement>(null);
  const social = socialLinkItems(profile.socialLinks);

  // Closing the social links form gives the focus back to the button that opened it.
  const closeSocial = () => {
    setEditingSocial(false);
    requestAnimationFrame(() => editSocialRef.current?.focus());
  };

  const onDelete = async (index: number, url: string) => {
    setDeleting(index);
    await links.deleteLink(index, url);
    setDeleting(null);
  };

  return (
    <div className="flex flex-col gap-8">
      <section aria-labelledby="custom-links-heading" className="flex flex-col gap-3">
        <h2 id="custom-links-heading" className="text-lg font-semibold tracking-tight">
          Links
        </h2>
        {profile.customLinks.length === 0 ? (
          <EmptyState icon={Link2} className="py-10">
            {isOwner ? 'You have not added any links yet.' : 'No links yet.'}
          </EmptyState>
        ) : (
          <ul aria-label="Custom links" className="flex flex-col gap-2">
            {profile.customLinks.map((link, index) => (
              <li key={`${index}-${link.url}`} className="flex items-center gap-2">
                <a
                  href={link.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="group flex min-w-0 flex-1 items-center gap-3 rounded-xl border border-border bg-surface px-4 py-3 transition-colors hover:border-accent/50 hover:bg-surface-raised"
                >
                  <span className="flex size-9 shrink-0 items-center justify-center rounded-full bg-accent-soft text-violet-300">
                    <Link2 aria-hidden="true" className="size-4" />
                  </span>
                  <span className="flex min-w-0 flex-col">
                    <span className="truncate font-semibold text-foreground">{link.title}</span>
                    <span className="truncate text-xs text-subtle">{hostOf(link.url)}</span>
                  </span>
                  <ExternalLink aria-hidden="true" className="ml-auto size-4 shrink-0 text-subtle group-hover:text-foreground" />
                </a>
                {isOwner ? (
                  <ConfirmDialog
                    title={LINK_TEXTS.deleteConfirm.title}
                    description={LINK_TEXTS.deleteConfirm.description(link.title, hostOf(link.url))}
                    confirmLabel={LINK_TEXTS.deleteConfirm.confirm}
                    onConfirm={() => onDelete(index, link.url)}
                    trigger={
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Delete link ${link.title}`}
                        title="Delete link"
                        loading={deleting === index}
                        disabled={deleting !== null}
                      >
                        {deleting === index ? null : <Trash2 aria-hidden="true" className="size-4" />}
                      </Button>
                    }
                  />
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {isOwner ? <AddLinkForm onAdd={links.addLink} adding={links.adding} isPremium={profile.isPremium} /> : null}
      </section>

      <section aria-labelledby="social-links-heading" className="flex flex-col gap-3">
        <div className="flex items-center justify-between gap-3">
          <h2 id="social-links-heading" className="text-lg font-semibold tracking-tight">
            Social
          </h2>
          {isOwner && !editingSocial ? (
            <Button ref={editSocialRef} variant="secondary" size="sm" onClick={() => setEditingSocial(true)}>
              <Pencil aria-hidden="true" className="size-3.5" />
              Edit social links
            </Button>
          ) : null}
        </div>
        {editingSocial ? (
          <SocialLinksForm
            initial={profile.socialLinks}
            saving={links.savingSocial}
            onSave={links.updateSocialLinks}
            onDone={closeSocial}
          />
        ) : social.length === 0 ? (
          <p className="text-sm text-muted">{isOwner ? 'You have not added any social links yet.' : 'No social links yet.'}</p>
        ) : (
          <SocialLinkList items={social} look="cards" />
        )}
      </section>
    </div>
  );
}

function AddLinkForm({
  onAdd,
  adding,
  isPremium,
}: {
  onAdd: (input: NewLink) => Promise<boolean>;
  adding: boolean;
  isPremium: boolean;
}) {
  const form = useZodForm(AddLinkInput, {
    defaultValues: { title: '', url: '' },
    // The spec's words for this form: the first problem as the title ('Please fill in both title and URL fields')
    invalidToast: (messages) => ({ title: messages[0] ?? LINK_TEXTS.fieldsRequired }),
  });

  const onSubmit = form.submit(async (values) => {
    if (await onAdd(values)) form.reset();
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-labelledby="add-link-heading"
      className="mt-2 flex flex-col gap-4 rounded-card border border-border bg-surface p-4 md:p-5"
    >
      <div>
        <h3 id="add-link-heading" className="font-semibold">
          Add a link
        </h3>
        {isPremium ? null : (
          <p className="mt-0.5 text-xs text-subtle">Up to {PROFILE_LIMITS.customLinksFree} links. Premium creators add as many as they like.</p>
        )}
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Title" error={form.error('title')}>
          {(field) => <Input {...field} {...form.field('title')} maxLength={PROFILE_LIMITS.linkTitleMaxLength} placeholder="My shop" />}
        </FormField>
        <FormField label="URL" error={form.error('url')}>
          {(field) => (
            <Input
              {...field}
              {...form.field('url')}
              type="url"
              inputMode="url"
              maxLength={PROFILE_LIMITS.urlMaxLength}
              placeholder="https://example.com"
            />
          )}
        </FormField>
      </div>
      <div className="flex justify-end">
        <Button type="submit" loading={adding}>
          {adding ? null : <Plus aria-hidden="true" className="size-4" />}
          Add link
        </Button>
      </div>
    </form>
  );
}

const SOCIAL_FIELDS: Record<SocialKind, { placeholder: string; hint: string }> = {
  twitter: { placeholder: 'username', hint: 'Your Twitter (X) username' },
  instagram: { placeholder: 'username', hint: 'Your Instagram username' },
  youtube: { placeholder: 'https://youtube.com/@channel', hint: 'Your channel’s address' },
  website: { placeholder: 'https://example.com', hint: 'Your website’s address' },
};

function SocialLinksForm({
  initial,
  saving,
  onSave,
  onDone,
}: {
  initial: Profile['socialLinks'];
  saving: boolean;
  onSave: (values: SocialLinksValues) => Promise<{ refused: unknown } | null>;
  onDone: () => void;
}) {
  const form = useZodForm(UpdateSocialLinksInput, {
    defaultValues: {
      twitter: initial.twitter ?? '',
      instagram: initial.instagram ?? '',
      youtube: initial.youtube ?? '',
      website: initial.website ?? '',
    },
    // each message stands beside its field; the toast is for the server's refusals
    invalidToast: null,
  });

  // Opened from 'Edit social links': the first field takes the focus.
  const { setFocus } = form;
  useEffect(() => setFocus(SOCIAL_KINDS[0]), [setFocus]);

  const onSubmit = form.submit(async (values) => {
    const failure = await onSave(values);
    if (failure) form.showServerErrors(failure.refused);
    else onDone();
  });

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      aria-label="Edit social links"
      className="flex flex-col gap-4 rounded-card border border-border bg-surface p-4 md:p-5"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {SOCIAL_KINDS.map((kind) => (
          <FormField key={kind} label={SOCIAL_META[kind].label} error={form.error(kind)} hint={SOCIAL_FIELDS[kind].hint}>
            {(field) => (
              <Input
                {...field}
                {...form.field(kind)}
                type={kind === 'youtube' || kind === 'website' ? 'url' : 'text'}
                inputMode={kind === 'youtube' || kind === 'website' ? 'url' : 'text'}
                autoCapitalize="off"
                spellCheck={false}
                maxLength={PROFILE_LIMITS.urlMaxLength}
                placeholder={SOCIAL_FIELDS[kind].placeholder}
              />
            )}
          </FormField>
        ))}
      </div>
      <div className="flex justify-end gap-2">
        <Button variant="ghost" onClick={onDone} disabled={saving}>
          Cancel
        </Button>
        <Button type="submit" loading={saving}>
          Save social links
        </Button>
      </div>
    </form>
  );
}
