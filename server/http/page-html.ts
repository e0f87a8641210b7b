import { FIRST_DATA_ELEMENT_ID } from '../../common/first-data';
import { postName } from '../../common/post-name';
import type { PostDto } from '../../common/post-dtos';
import type { ProfileDto } from '../../common/profile-dtos';
import { BRAND, LANDING } from '../../common/texts';
import { postCardImage, profileCardImage } from '../features/og-cards/og-cards.http';
import type { FirstData } from './first-data';

/**
 * The HTML of a page: the built index.html with the page's head (title, description, canonical
 * URL, Open Graph and Twitter card tags for link previews; issue 30 item 5) and its first data
 * (a JSON script, which the CSP allows: it is never executed).
 *
 * Link previews come only from what an anonymous visitor may see (first-data.ts drops them for a
 * signed-in request): a public profile's name and bio, a visible post's title and text, and the
 * page's card (1200x630, drawn by server/features/og-cards from the avatar or the post's picture,
 * a premium post's blurred preview, the name and counts) under an address that changes with what
 * it shows. A private or hidden profile, a draft or a post of one is 'not found' to a visitor, so
 * its page carries nothing of it (and says noindex).
 */
export interface Head {
  title: string;
  description: string;
  canonical: string | null;
  og: Record<string, string>;
  twitter: Record<string, string>;
  noindex: boolean;
}

const DESCRIPTION_MAX = 200;

/** The head of a page from what its route's loader found (its `preview`: src/routes, common/first-data.ts). */
export function pageHead(appUrl: string, first: Pick<FirstData, 'notFound' | 'preview'> | null): Head {
  const base: Head = { title: BRAND.name, description: BRAND.footerAbout, canonical: null, og: {}, twitter: {}, noindex: false };
  if (first?.notFound) return { ...base, noindex: true };
  const preview = first?.preview;
  if (preview?.kind === 'site') return previewHead({ type: 'website', title: BRAND.name, description: LANDING.subline, url: `${appUrl}/` });
  if (preview?.kind === 'profile') return profileHead(preview.profile, appUrl);
  if (preview?.kind === 'post') return postHead(preview.post, appUrl);
  return base;
}

interface Preview {
  type: 'website' | 'profile' | 'article';
  /** the page's own name; the document title adds the brand */
  title: string;
  description: string;
  url: string;
  image?: { url: string; alt: string; width?: number | null; height?: number | null; large?: boolean } | null;
  extra?: Record<string, string>;
}

/** One preview, as Open Graph and Twitter card tags both say it. */
function previewHead({ type, title, description, url, image, extra = {} }: Preview): Head {
  const text = clip(description);
  return {
    title: title === BRAND.name ? title : `${title} · ${BRAND.name}`,
    description: text,
    canonical: url,
    noindex: false,
    og: {
      'og:type': type,
      'og:site_name': BRAND.name,
      'og:title': title,
      'og:description': text,
      'og:url': url,
      ...extra,
      ...(image ? { 'og:image': image.url, 'og:image:alt': image.alt } : {}),
      ...(image?.width && image.height ? { 'og:image:width': String(image.width), 'og:image:height': String(image.height) } : {}),
    },
    twitter: {
      'twitter:card': image?.large ? 'summary_large_image' : 'summary',
      'twitter:title': title,
      'twitter:description': text,
      ...(image ? { 'twitter:image': image.url, 'twitter:image:alt': image.alt } : {}),
    },
  };
}

function profileHead(profile: ProfileDto, appUrl: string): Head {
  return previewHead({
    type: 'profile',
    title: `${profile.displayName} (@${profile.username})`,
    description: profile.bio?.trim() || `${profile.displayName} on ${BRAND.name}`,
    url: `${appUrl}/${encodeURIComponent(profile.username)}`,
    image: { ...profileCardImage(appUrl, profile), large: true },
    extra: { 'profile:username': profile.username },
  });
}

function postHead(post: PostDto, appUrl: string): Head {
  const title = postName(post);
  const by = `${post.creator.displayName || post.creator.username} (@${post.creator.username})`;
  return previewHead({
    type: 'article',
    title,
    description: post.text?.trim() || `A post by ${by} on ${BRAND.name}`,
    url: `${appUrl}/post/${encodeURIComponent(post.id)}`,
    image: { ...postCardImage(appUrl, post), large: true },
  });
}

function clip(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= DESCRIPTION_MAX ? oneLine : `${oneLine.slice(0, DESCRIPTION_MAX - 1).trimEnd()}…`;
}

/** Text in HTML or XML: element content and quoted attribute values. */
export const escapeMarkup = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON inside a script element: nothing in it may close the element or open a comment. */
const scriptSafe = (json: string) => json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/** The built index.html taken apart once (it never changes while the server runs). */
export interface PageTemplate {
  /** the template without its title, description, stylesheets and scripts */
  shell: string;
  stylesheets: string[];
  /** the entry module's URL (none in a template without scripts) */
  entry: string | null;
  /** the modules the entry imports, which the build asks to preload */
  preloads: string[];
}

const STYLESHEET = /<link rel="stylesheet"[^>]*>/g;
const ENTRY = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>/;
const PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>/g;

export function parseTemplate(template: string): PageTemplate {
  return {
    stylesheets: template.match(STYLESHEET) ?? [],
    entry: ENTRY.exec(template)?.[1] ?? null,
    preloads: [...template.matchAll(PRELOAD)].map((m) => m[1]!),
    shell: template
      .replace(STYLESHEET, '')
      .replace(ENTRY, '')
      .replace(PRELOAD, '')
      .replace(/<title>[^<]*<\/title>/, '')
      .replace(/<meta name="description"[^>]*>/, '')
      .replace(/\n\s*\n/g, '\n'),
  };
}

/**
 * Loads a server-rendered page's scripts once its markup has been painted. The page reads
 * without them (links are links), and asked for at once they share a phone's narrow link with
 * the styles and the largest picture, then run before the first paint, which waited for them.
 * A page opened in a background tab paints nothing until shown, so it loads them at once.
 *
 * The modules are asked for a few at a time, each few in a task of its own: a profile's page
 * preloads some 40 modules, and adding them all in one task cost a slow phone 150-200 ms of
 * blocked main thread (issue 30: total blocking time). The first few (the libraries the entry
 * imports first) go before the entry, the rest right after it.
 */
export const BOOT_BATCH = 4;
const bootAfterPaint = (entry: string, preloads: string[]) =>
  `(function(e,p){var h=document.head,i=0;function link(u){var l=document.createElement('link');l.rel='modulepreload';l.crossOrigin='';l.href=u;h.appendChild(l)}` +
  `function more(){p.slice(i,i+=${BOOT_BATCH}).forEach(link);if(p.length>i)setTimeout(more)}` +
  `function go(){more();var s=document.createElement('script');s.type='module';s.crossOrigin='';s.src=e;h.appendChild(s)}` +
  `if(document.visibilityState==='hidden')go();else requestAnimationFrame(function(){setTimeout(go)})})(${scriptSafe(JSON.stringify(entry))},${scriptSafe(JSON.stringify(preloads))})`;

/**
 * The page: the template's shell with `head` (title, description, link previews), the page's
 * server-rendered markup (server-render.ts; trusted: React escaped it) in #root, and the first
 * data after it. What the first paint waits for (the styles, the largest picture, whose <img> has
 * the same srcset and sizes) is asked for first. A page rendered in the browser asks for its
 * scripts (the entry's modules and its route's, `routeScripts`) in the head; a server-rendered
 * one (with `nonce`, the response's CSP nonce) only after its first paint.
 */
export function renderPage(
  page: PageTemplate,
  head: Head,
  first: Pick<FirstData, 'state' | 'leadImage'> | null,
  routeScripts: string[] = [],
  markup = '',
  nonce = '',
): string {
  const firstData = first?.state ?? null;
  const lead = first?.leadImage;
  const modules = [...page.preloads, ...routeScripts];
  const afterPaint = Boolean(markup && nonce && page.entry);
  const scripts = afterPaint || !page.entry
    ? []
    : [`<script type="module" crossorigin src="${escapeMarkup(page.entry)}"></script>`, ...modules.map((href) => `<link rel="modulepreload" crossorigin href="${escapeMarkup(href)}" />`)];
  const tags = [
    ...page.stylesheets,
    lead
      ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeMarkup(lead.src)}"${lead.srcSet ? ` imagesrcset="${escapeMarkup(lead.srcSet)}" imagesizes="${escapeMarkup(lead.sizes ?? '')}"` : ''} />`
      : '',
    ...scripts,
    `<title>${escapeMarkup(head.title)}</title>`,
    `<meta name="description" content="${escapeMarkup(head.description)}" />`,
    head.noindex ? '<meta name="robots" content="noindex" />' : '',
    head.canonical ? `<link rel="canonical" href="${escapeMarkup(head.canonical)}" />` : '',
    ...Object.entries(head.og).map(([property, content]) => `<meta property="${property}" content="${escapeMarkup(content)}" />`),
    ...Object.entries(head.twitter).map(([name, content]) => `<meta name="${name}" content="${escapeMarkup(content)}" />`),
  ].filter(Boolean);
  const data = firstData === null ? '' : `<script type="application/json" id="${FIRST_DATA_ELEMENT_ID}">${scriptSafe(firstData)}</script>`;
  const boot = afterPaint ? `<script nonce="${escapeMarkup(nonce)}">${bootAfterPaint(page.entry!, modules)}</script>` : '';
  return (
    page.shell
      // functions, not strings: a `$&` in a user's text must stay text
      .replace('</head>', () => `  ${tags.join('\n    ')}\n  </head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${markup}</div>${data}${boot}`)
  );
}
