import { formatCompactCount } from '../../../common/format';
import { BRAND, POST_TEXTS } from '../../../common/texts';
import { FONT_FAMILY } from './card-fonts';
import { CARD_HEIGHT, CARD_WIDTH, type Card, type PostCard, type ProfileCard } from './card-model';

/**
 * The card as satori's element tree (React-element-like objects: type, props.style,
 * props.children), drawn in the app's dark theme: its canvas, surfaces and violet-to-pink accent
 * (src/styles.css). Every text is on the near-black canvas or a dark scrim, so the light text
 * (#f4f4f6, 18:1) and the muted one (#a1a1ad, 7:1 on the canvas, over 4.5:1 on the scrims) pass
 * AA at any size; the gradient glows sit in the corners, away from the words.
 */
export interface CardPictures {
  /** data: URIs, already cut to the size they are drawn at (card-pictures.ts) */
  avatar: string | null;
  /** the post's picture (or its blurred preview) */
  picture: string | null;
  /** a profile card's background: its avatar, blurred and darkened */
  backdrop: string | null;
}

export interface CardNode {
  type: string;
  props: { style?: Record<string, string | number>; children?: CardChild | CardChild[]; [attribute: string]: unknown };
}
type CardChild = CardNode | string | null;

const COLORS = {
  canvas: '#08080b',
  surface: '#111116',
  border: '#26262f',
  foreground: '#f4f4f6',
  muted: '#a1a1ad',
  accent: '#8b5cf6',
  pink: '#ec4899',
  verified: '#38bdf8',
} as const;

const PAD = 64;

const el = (type: string, style: Record<string, string | number>, children?: CardChild | CardChild[], attributes: Record<string, unknown> = {}): CardNode => ({
  type,
  // satori sizes boxes as content-box unless told: every box here is border-box, as in the app
  props: { style: { boxSizing: 'border-box', ...style }, ...(children === undefined ? {} : { children }), ...attributes },
});

/** The brand's mark (public/favicon.svg) as a picture satori embeds. */
const MARK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#8b5cf6"/><stop offset="1" stop-color="#ec4899"/></linearGradient></defs><rect width="64" height="64" rx="16" fill="url(#g)"/><path d="M41 22.5a13 13 0 1 0 0 19" fill="none" stroke="#fff" stroke-width="7" stroke-linecap="round"/></svg>';
const MARK = `data:image/svg+xml;base64,${Buffer.from(MARK_SVG).toString('base64')}`;

const TICK_SVG = (color: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><circle cx="12" cy="12" r="12" fill="${color}"/><path d="M7 12.5l3.2 3.2L17 9" fill="none" stroke="#08080b" stroke-width="2.6" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
const TICK = `data:image/svg+xml;base64,${Buffer.from(TICK_SVG(COLORS.verified)).toString('base64')}`;

const LOCK_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24" fill="none" stroke="#f4f4f6" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"><rect x="4" y="11" width="16" height="10" rx="2"/><path d="M8 11V7a4 4 0 0 1 8 0v4"/></svg>';
const LOCK = `data:image/svg+xml;base64,${Buffer.from(LOCK_SVG).toString('base64')}`;

/** The profile header's glow (profile-header.tsx), moved to the corners of a wider canvas. */
const GLOW =
  'radial-gradient(ellipse 60% 70% at 0% 0%, rgba(139,92,246,0.42), rgba(139,92,246,0) 100%), radial-gradient(ellipse 55% 65% at 100% 100%, rgba(236,72,153,0.30), rgba(236,72,153,0) 100%)';

const countLine = (parts: { value: number; one: string; many: string }[], size: number) =>
  el(
    'div',
    { display: 'flex', gap: 36, fontSize: size },
    parts.map(({ value, one, many }) =>
      el('div', { display: 'flex', gap: 12 }, [
        el('span', { color: COLORS.foreground, fontWeight: 700 }, formatCompactCount(value)),
        el('span', { color: COLORS.muted }, value === 1 ? one : many),
      ]),
    ),
  );

/** A round picture, or the name's first letter on the accent gradient (the app's Avatar). */
function avatar(picture: string | null, name: string, size: number, ring: number): CardNode {
  const frame = { width: size, height: size, borderRadius: size / 2, border: `${ring}px solid ${COLORS.surface}`, flexShrink: 0 };
  if (picture) return el('img', { ...frame, objectFit: 'cover' }, undefined, { src: picture, width: size, height: size });
  const letter = (Array.from(name.trim())[0] ?? '?').toUpperCase();
  return el(
    'div',
    {
      ...frame,
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      backgroundImage: `linear-gradient(135deg, ${COLORS.accent}, ${COLORS.pink})`,
      color: '#ffffff',
      fontSize: Math.round(size * 0.44),
      fontWeight: 800,
    },
    letter,
  );
}

const nameLine = (name: string, verified: boolean, size: number, lines: number) =>
  el('div', { display: 'flex', alignItems: 'center', gap: Math.round(size * 0.25), maxWidth: '100%' }, [
    el('div', { display: 'block', color: COLORS.foreground, fontSize: size, fontWeight: 800, lineHeight: 1.1, letterSpacing: -1, lineClamp: lines, overflow: 'hidden', wordBreak: 'break-word' }, name),
    verified ? el('img', { width: size * 0.62, height: size * 0.62, flexShrink: 0 }, undefined, { src: TICK, width: Math.round(size * 0.62), height: Math.round(size * 0.62) }) : null,
  ]);

const brand = (host: string) =>
  el('div', { display: 'flex', alignItems: 'center', justifyContent: 'space-between', width: '100%' }, [
    el('div', { display: 'flex', alignItems: 'center', gap: 16 }, [
      el('img', { width: 48, height: 48 }, undefined, { src: MARK, width: 48, height: 48 }),
      el('span', { color: COLORS.foreground, fontSize: 32, fontWeight: 700 }, BRAND.name),
    ]),
    el('span', { color: COLORS.muted, fontSize: 28 }, host),
  ]);

function profileLayout(card: ProfileCard, pictures: CardPictures, host: string): CardNode {
  const backdrop = pictures.backdrop
    ? el('img', { position: 'absolute', left: 0, top: 0, width: CARD_WIDTH, height: CARD_HEIGHT, objectFit: 'cover', opacity: 0.55 }, undefined, {
        src: pictures.backdrop,
        width: CARD_WIDTH,
        height: CARD_HEIGHT,
      })
    : null;
  return el(
    'div',
    { display: 'flex', position: 'relative', width: CARD_WIDTH, height: CARD_HEIGHT, backgroundColor: COLORS.canvas, backgroundImage: GLOW, fontFamily: FONT_FAMILY },
    [
      backdrop,
      // a scrim under the words: the muted text keeps AA on any avatar's colours
      backdrop ? el('div', { position: 'absolute', left: 0, top: 0, width: CARD_WIDTH, height: CARD_HEIGHT, backgroundColor: 'rgba(8,8,11,0.72)' }) : null,
      el('div', { display: 'flex', flexDirection: 'column', justifyContent: 'space-between', position: 'relative', width: '100%', height: '100%', padding: PAD }, [
        el('div', { display: 'flex', alignItems: 'center', gap: 56, flexGrow: 1 }, [
          avatar(pictures.avatar, card.name, 260, 8),
          el('div', { display: 'flex', flexDirection: 'column', gap: 18, flexShrink: 1, minWidth: 0 }, [
            nameLine(card.name, card.verified, 72, 2),
            el('div', { color: COLORS.muted, fontSize: 40 }, `@${card.username}`),
            card.counts
              ? el('div', { display: 'flex', marginTop: 14 }, [
                  countLine(
                    [
                      { value: card.counts.subscribers, one: 'subscriber', many: 'subscribers' },
                      { value: card.counts.posts, one: 'post', many: 'posts' },
                    ],
                    36,
                  ),
                ])
              : null,
          ]),
        ]),
        brand(host),
      ]),
    ],
  );
}

const PANEL_WIDTH = 500;

function postLayout(card: PostCard, pictures: CardPictures, host: string): CardNode {
  const textWidth = pictures.picture ? CARD_WIDTH - PANEL_WIDTH : CARD_WIDTH;
  const panel = pictures.picture
    ? el('div', { display: 'flex', position: 'absolute', right: 0, top: 0, width: PANEL_WIDTH, height: CARD_HEIGHT }, [
        el('img', { width: PANEL_WIDTH, height: CARD_HEIGHT, objectFit: 'cover' }, undefined, { src: pictures.picture, width: PANEL_WIDTH, height: CARD_HEIGHT }),
        // the picture fades into the canvas on its left edge
        el('div', { position: 'absolute', left: 0, top: 0, width: 120, height: CARD_HEIGHT, backgroundImage: `linear-gradient(90deg, ${COLORS.canvas}, rgba(8,8,11,0))` }),
        card.locked
          ? el(
              'div',
              {
                position: 'absolute',
                left: 0,
                top: 0,
                width: PANEL_WIDTH,
                height: CARD_HEIGHT,
                display: 'flex',
                flexDirection: 'column',
                alignItems: 'center',
                justifyContent: 'center',
                gap: 18,
              },
              [
                el('div', { display: 'flex', alignItems: 'center', justifyContent: 'center', width: 96, height: 96, borderRadius: 48, backgroundColor: 'rgba(8,8,11,0.78)' }, [
                  el('img', { width: 48, height: 48 }, undefined, { src: LOCK, width: 48, height: 48 }),
                ]),
                el(
                  'div',
                  { display: 'flex', padding: '10px 22px', borderRadius: 999, backgroundColor: 'rgba(8,8,11,0.78)', color: COLORS.foreground, fontSize: 30, fontWeight: 700 },
                  card.locked === 'pay-per-view' ? 'Pay-per-view' : POST_TEXTS.premiumOverlay.title,
                ),
              ],
            )
          : null,
      ])
    : null;
  return el(
    'div',
    { display: 'flex', position: 'relative', width: CARD_WIDTH, height: CARD_HEIGHT, backgroundColor: COLORS.canvas, backgroundImage: GLOW, fontFamily: FONT_FAMILY },
    [
      panel,
      el('div', { display: 'flex', flexDirection: 'column', justifyContent: 'space-between', position: 'relative', width: textWidth, height: CARD_HEIGHT, padding: PAD, paddingRight: pictures.picture ? 48 : PAD }, [
        el('div', { display: 'flex', alignItems: 'center', gap: 20 }, [
          avatar(pictures.avatar, card.creator.name, 72, 3),
          el('div', { display: 'flex', flexDirection: 'column', minWidth: 0, flexShrink: 1 }, [
            nameLine(card.creator.name, card.creator.verified, 32, 1),
            el('div', { color: COLORS.muted, fontSize: 26 }, `@${card.creator.username}`),
          ]),
        ]),
        el('div', { display: 'flex', flexDirection: 'column', gap: 20 }, [
          el(
            'div',
            { display: 'block', color: COLORS.foreground, fontSize: card.title.length > 60 ? 50 : 60, fontWeight: 800, lineHeight: 1.12, letterSpacing: -1, lineClamp: 3, wordBreak: 'break-word' },
            card.title,
          ),
          card.caption
            ? el('div', { display: 'block', color: COLORS.muted, fontSize: 30, lineHeight: 1.35, lineClamp: 2, wordBreak: 'break-word' }, card.caption)
            : null,
          countLine(
            [
              { value: card.counts.likes, one: 'like', many: 'likes' },
              { value: card.counts.comments, one: 'comment', many: 'comments' },
            ],
            28,
          ),
        ]),
        brand(pictures.picture ? '' : host),
      ]),
    ],
  );
}

export function cardLayout(card: Card, pictures: CardPictures, host: string): CardNode {
  return card.kind === 'profile' ? profileLayout(card, pictures, host) : postLayout(card, pictures, host);
}
