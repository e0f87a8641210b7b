import type { MediaKind, PaymentInterval, ProfileVisibility, WatermarkPosition } from '../../common/enums';
import type { CustomLink, SocialLinks } from '../../core/db/schema';
import type { Palette } from './media';

/** The people and content of the demo. Everything here is made up. */

export const DEMO_PASSWORD = 'demo-password';

export interface DemoTier {
  name: string;
  description: string;
  priceCents: number;
  interval: PaymentInterval;
  discount?: number;
}

export interface DemoPost {
  kind: MediaKind;
  title: string;
  text: string;
  premium?: boolean;
  /** pay-per-view: the price in cents and who pays it (issue 27 item 2) */
  unlock?: { priceCents: number; mode: 'everyone' | 'non_subscribers' };
  draft?: boolean;
  /** pinned to the top of the creator's profile (issue 29 item 5) */
  pinned?: boolean;
  filename: string;
}

export interface DemoCreator {
  username: string;
  displayName: string;
  bio: string;
  categories: string[];
  verified: boolean;
  premium: boolean;
  visibility: ProfileVisibility;
  dateOfBirth: string;
  social: SocialLinks;
  links: CustomLink[];
  palette: Palette;
  watermark: { enabled: boolean; text: string | null; position: WatermarkPosition };
  tiers: DemoTier[];
  /** how many of the bulk fans subscribe, on top of the named fans below */
  bulkSubscribers: number;
  posts: DemoPost[];
}

export interface DemoFan {
  username: string;
  displayName: string;
  dateOfBirth: string;
  admin?: boolean;
  /** creators this fan subscribes to; `expired:` marks a lapsed subscription */
  subscribesTo: string[];
}

export const CREATORS: DemoCreator[] = [
  {
    username: 'ava',
    displayName: 'Ava Moreau',
    bio: 'Painter and illustrator in Cape Town. Weekly process videos, brush packs and studio notes.',
    categories: ['Art'],
    verified: true,
    premium: true,
    visibility: 'public',
    dateOfBirth: '1991-04-12',
    social: { instagram: 'ava.paints', twitter: 'avamoreau', website: 'https://ava-moreau.example' },
    links: [
      { title: 'Print shop', url: 'https://shop.ava-moreau.example' },
      { title: 'Commission queue', url: 'https://ava-moreau.example/commissions' },
    ],
    palette: ['#ff7e5f', '#feb47b', '#6a3093'],
    watermark: { enabled: true, text: '© Ava Moreau', position: 'bottom-right' },
    tiers: [
      { name: 'Sketchbook', description: 'Early sketches and a weekly studio diary.', priceCents: 19_00, interval: 'weekly' },
      { name: 'Studio Pass', description: 'Everything, plus process videos and brush packs.', priceCents: 79_00, interval: 'monthly', discount: 10 },
      { name: 'Patron', description: 'A year of everything and a signed print.', priceCents: 790_00, interval: 'annually', discount: 20 },
    ],
    bulkSubscribers: 39,
    posts: [
      { kind: 'image', title: 'Golden hour study', text: 'Golden hour study in oils, forty minutes start to finish. #oilpainting #sunset #art', filename: 'golden-hour.jpg' },
      { kind: 'image', title: 'Brush pack vol. 3', text: 'Subscribers: brush pack vol. 3 is live, 24 textured brushes with a guide to each. #brushes #procreate #digitalart', premium: true, filename: 'brush-pack-3.jpg' },
      { kind: 'video', title: 'Timelapse: harbour at dusk', text: 'Timelapse of this week\'s harbour piece. #timelapse #process #art', filename: 'harbour-timelapse.mp4' },
      { kind: 'image', title: 'Palette of the week', text: 'Warm greys and one loud orange. What would you paint with these? #colour #palette', filename: 'palette.jpg' },
      { kind: 'pdf', title: 'Colour theory cheat sheet', text: 'A printable colour theory cheat sheet for subscribers. #colourtheory #tutorial', premium: true, filename: 'colour-theory.pdf' },
      { kind: 'image', title: 'Studio supervisor', text: 'The studio supervisor is on duty and unimpressed. #studiocat #art', filename: 'studio-cat.jpg' },
      { kind: 'image', title: 'Work in progress', text: 'Not ready yet: underpainting for the next big piece. #wip', draft: true, filename: 'wip.jpg' },
    ],
  },
  {
    username: 'leo',
    displayName: 'Leo Okafor',
    bio: 'Producer and bassist. Loops, stems and late-night jam sessions.',
    categories: ['Music'],
    verified: true,
    premium: false,
    visibility: 'public',
    dateOfBirth: '1988-09-30',
    social: { youtube: 'https://youtube.com/@leookafor', instagram: 'leo.low.end' },
    links: [{ title: 'Tour dates', url: 'https://leo-okafor.example/live' }],
    palette: ['#1e3c72', '#2a5298', '#f7797d'],
    watermark: { enabled: false, text: null, position: 'center' },
    tiers: [
      { name: 'Listener', description: 'New loops every week.', priceCents: 15_00, interval: 'weekly' },
      { name: 'Backstage', description: 'Loops, stems and the monthly Q&A.', priceCents: 59_00, interval: 'monthly' },
      { name: 'Producer', description: 'A year of stems and sample packs.', priceCents: 599_00, interval: 'annually', discount: 15 },
    ],
    bulkSubscribers: 26,
    posts: [
      { kind: 'audio', title: 'Late-night loop #12', text: 'Late-night loop, 90 bpm. Headphones on. #lofi #beats #music', filename: 'loop-12.mp3' },
      { kind: 'audio', title: 'Stems: Midnight drive', text: 'Full stems of Midnight drive for subscribers. #stems #production', premium: true, filename: 'midnight-drive-stems.mp3' },
      { kind: 'image', title: 'Studio corner', text: 'New rack, same old bass. #studio #bass #gear', filename: 'studio-corner.jpg' },
      { kind: 'video', title: 'Groove breakdown', text: 'Breaking down the groove from Friday\'s jam, slowly. #bass #lesson', premium: true, filename: 'groove-breakdown.mp4' },
      { kind: 'document', title: 'Saturday setlist', text: 'Saturday setlist, come say hi after the show. #live #setlist', filename: 'setlist.txt' },
    ],
  },
  {
    username: 'maya',
    displayName: 'Maya Chen',
    bio: 'Hardware hacker. Tutorials on embedded Rust, keyboards and home labs.',
    categories: ['Technology'],
    verified: true,
    premium: false,
    visibility: 'public',
    dateOfBirth: '1994-02-17',
    social: { twitter: 'mayabuilds', youtube: 'https://youtube.com/@mayabuilds', website: 'https://mayabuilds.example' },
    links: [{ title: 'Parts list', url: 'https://mayabuilds.example/parts' }],
    palette: ['#0f2027', '#2c5364', '#00d2ff'],
    watermark: { enabled: true, text: null, position: 'top-left' },
    tiers: [
      { name: 'Reader', description: 'Every tutorial as it comes out.', priceCents: 49_00, interval: 'monthly' },
      { name: 'Builder', description: 'A year of tutorials and the PCB files.', priceCents: 490_00, interval: 'annually', discount: 25 },
    ],
    bulkSubscribers: 11,
    posts: [
      { kind: 'image', title: 'Split keyboard build', text: 'Finished the split keyboard build! Hand-wired, #rust firmware. #keyboards #diy #embedded', filename: 'split-keyboard.jpg', pinned: true },
      { kind: 'pdf', title: 'Home lab network', text: 'My #homelab network, annotated, in one page. #networking', filename: 'homelab-network.pdf' },
      { kind: 'image', title: 'PCB walkthrough, part 2', text: 'Part 2 of the PCB design walkthrough is up for subscribers. #pcb #hardware', premium: true, filename: 'pcb-part-2.jpg' },
      { kind: 'document', title: 'Firmware notes', text: 'Notes from this week\'s debugging session. #rust #embedded', premium: true, filename: 'firmware-notes.txt' },
      { kind: 'image', title: 'Soldering station', text: 'Soldering station tour. Fume extraction matters. #soldering #workshop', filename: 'soldering.jpg' },
    ],
  },
  {
    username: 'kai',
    displayName: 'Kai Jensen',
    bio: 'Speedrunner and level-design nerd. Route breakdowns every Friday.',
    categories: ['Gaming'],
    verified: false,
    premium: true,
    visibility: 'public',
    dateOfBirth: '1998-07-05',
    social: { twitter: 'kairuns', youtube: 'https://youtube.com/@kairuns' },
    links: [{ title: 'Leaderboard', url: 'https://speedrun.example/kai' }],
    palette: ['#8e2de2', '#4a00e0', '#00f5a0'],
    watermark: { enabled: true, text: 'kairuns', position: 'top-right' },
    tiers: [
      { name: 'Squad', description: 'Route notes and early videos.', priceCents: 12_00, interval: 'weekly' },
      { name: 'Speedrunner', description: 'Full route maps and coaching streams.', priceCents: 45_00, interval: 'monthly', discount: 5 },
    ],
    bulkSubscribers: 7,
    posts: [
      { kind: 'video', title: 'New any% route', text: 'The new any% route saves four seconds in world 2. #speedrun #gaming', filename: 'any-percent.mp4' },
      { kind: 'image', title: 'Level sketch', text: 'Sketching a level for my game jam entry. #gamedev #leveldesign', filename: 'level-sketch.jpg' },
      { kind: 'image', title: 'Route map (full)', text: 'The full annotated route map, for supporters. #speedrun #routing', premium: true, filename: 'route-map.jpg' },
      {
        kind: 'image', title: 'Secret skip, explained', text: 'The frame-perfect skip nobody has shown yet, step by step. #speedrun',
        unlock: { priceCents: 7500, mode: 'everyone' }, filename: 'secret-skip.jpg',
      },
      { kind: 'image', title: 'Jam entry title screen', text: 'Title screen mock-up, not final. #gamedev', draft: true, filename: 'title-screen.jpg' },
    ],
  },
  {
    username: 'noah',
    displayName: 'Noah Dlamini',
    bio: 'Street photographer and beat-maker from Johannesburg.',
    categories: ['Art', 'Music'],
    verified: false,
    premium: false,
    visibility: 'public',
    dateOfBirth: '1996-11-21',
    social: { instagram: 'noah.d.frames' },
    links: [],
    palette: ['#f7971e', '#ffd200', '#2b5876'],
    watermark: { enabled: true, text: null, position: 'center' },
    tiers: [{ name: 'Supporter', description: 'Say thanks and get the beats first.', priceCents: 35_00, interval: 'monthly' }],
    bulkSubscribers: 3,
    posts: [
      { kind: 'image', title: 'Juta Street', text: 'Saturday morning on Juta Street. #streetphotography #johannesburg', filename: 'juta-street.jpg' },
      { kind: 'audio', title: 'Taxi rank beat', text: 'A beat built from a taxi-rank field recording. #beats #fieldrecording', filename: 'taxi-rank.mp3' },
    ],
  },
  {
    username: 'iris',
    displayName: 'Iris Novak',
    bio: 'A private sketchbook, for subscribers only.',
    categories: ['Art'],
    verified: false,
    premium: false,
    visibility: 'private',
    dateOfBirth: '1990-06-03',
    social: {},
    links: [],
    palette: ['#e0c3fc', '#8ec5fc', '#434343'],
    watermark: { enabled: true, text: 'Iris Novak', position: 'bottom-left' },
    tiers: [{ name: 'Inner circle', description: 'The whole sketchbook.', priceCents: 99_00, interval: 'monthly' }],
    bulkSubscribers: 1,
    posts: [
      { kind: 'image', title: 'Sketchbook, page 41', text: 'Ink and wash, page 41. #sketchbook', filename: 'page-41.jpg' },
      { kind: 'image', title: 'Figure studies', text: 'Ten-minute poses. #figuredrawing', premium: true, filename: 'figures.jpg' },
    ],
  },
  {
    username: 'theo',
    displayName: 'Theo Marsh',
    bio: 'On a break, back soon.',
    categories: ['Gaming', 'Technology'],
    verified: false,
    premium: false,
    visibility: 'hidden',
    dateOfBirth: '1993-01-28',
    social: { twitter: 'theomarsh' },
    links: [],
    palette: ['#232526', '#414345', '#ff416c'],
    watermark: { enabled: false, text: null, position: 'center' },
    tiers: [{ name: 'Supporter', description: 'Keeps the CRTs running.', priceCents: 29_00, interval: 'monthly' }],
    bulkSubscribers: 0,
    posts: [{ kind: 'image', title: 'Retro corner', text: 'The CRT finally works. #retrogaming', filename: 'retro-corner.jpg' }],
  },
];

export const FANS: DemoFan[] = [
  { username: 'sam', displayName: 'Sam Rivera', dateOfBirth: '1995-03-14', subscribesTo: ['ava', 'leo'] },
  { username: 'zoe', displayName: 'Zoe Adams', dateOfBirth: '1999-08-09', subscribesTo: ['maya', 'iris', 'expired:kai'] },
  { username: 'lena', displayName: 'Lena Park', dateOfBirth: '1987-12-01', subscribesTo: ['kai'] },
  { username: 'admin', displayName: 'Alex Admin', dateOfBirth: '1985-05-20', admin: true, subscribesTo: [] },
];

/** Lightweight fans who only subscribe and like, so subscriber counts differ between creators. */
export const BULK_FAN_COUNT = 40;
const FIRST = ['Amara', 'Ben', 'Chloe', 'Dev', 'Ella', 'Finn', 'Grace', 'Hugo', 'Isla', 'Jonah', 'Kira', 'Luca', 'Mia', 'Nico', 'Olive', 'Pax', 'Quinn', 'Rosa', 'Sipho', 'Tara'];
const LAST = ['Botha', 'Cohen', 'Diaz', 'Evans', 'Fourie', 'Gupta', 'Hale', 'Ito', 'Khumalo', 'Lind'];

export function bulkFan(i: number): { username: string; displayName: string; email: string } {
  const first = FIRST[i % FIRST.length]!;
  const last = LAST[Math.floor(i / FIRST.length) % LAST.length]!;
  const number = String(i + 1).padStart(2, '0');
  return {
    username: `${first}.${last}${number}`.toLowerCase(),
    displayName: `${first} ${last}`,
    email: `fan${number}@demo.test`,
  };
}

export const emailOf = (username: string) => `${username}@demo.test`;

/** A few hand-written threads so the post pages and the inbox are not empty. */
export const COMMENTS: { post: string; by: string; text: string; replies?: { by: string; text: string }[] }[] = [
  {
    post: 'Golden hour study',
    by: 'sam',
    text: 'The light on the water is unreal.',
    replies: [{ by: 'ava', text: 'Thank you! It was a twenty-minute window.' }],
  },
  { post: 'Golden hour study', by: 'zoe', text: 'Saving this one for reference.' },
  {
    post: 'Split keyboard build',
    by: 'lena',
    text: 'Which switches did you go with?',
    replies: [{ by: 'maya', text: 'Gateron browns, hand-lubed. Parts list is in my links.' }],
  },
  { post: 'New any% route', by: 'sam', text: 'Four seconds?! That is huge.' },
  { post: 'Late-night loop #12', by: 'zoe', text: 'On repeat all day.' },
  { post: 'Juta Street', by: 'ava', text: 'Lovely framing.' },
];

export const BOOKMARKS: { by: string; post: string }[] = [
  { by: 'sam', post: 'Golden hour study' },
  { by: 'sam', post: 'Split keyboard build' },
  { by: 'zoe', post: 'Late-night loop #12' },
];

export const MESSAGES: { from: string; to: string; text: string; read: boolean; replyToPrevious?: boolean; reaction?: string }[] = [
  { from: 'sam', to: 'ava', text: 'Hi Ava! Loved the harbour timelapse.', read: true },
  { from: 'ava', to: 'sam', text: 'Thanks Sam! A longer cut is coming for subscribers.', read: true, replyToPrevious: true, reaction: '❤️' },
  { from: 'sam', to: 'ava', text: 'Can\'t wait. Any tips for glazing?', read: false },
  { from: 'zoe', to: 'maya', text: 'Is the PCB walkthrough beginner-friendly?', read: true },
  { from: 'maya', to: 'zoe', text: 'Mostly! Part 1 covers the basics, start there.', read: false, replyToPrevious: true },
  { from: 'lena', to: 'kai', text: 'GG on the new route!', read: false },
];

export const TEXT_DOCUMENTS: Record<string, string> = {
  'Saturday setlist': 'Saturday setlist\n\n1. Midnight drive\n2. Late-night loop #12 (live)\n3. Low tide\n4. Brass in the attic\n5. Encore: Slow burn\n',
  'Firmware notes': 'Firmware notes\n\n- The USB stack hung because of a missed interrupt flag.\n- Debouncing moved to a timer; scan rate now 1 kHz.\n- Next: split-half link over a single wire.\n',
};

export const PDF_PAGES: Record<string, string[][]> = {
  'Colour theory cheat sheet': [
    ['Complementary: opposite on the wheel, maximum contrast.', 'Analogous: neighbours on the wheel, calm and unified.', 'Triadic: three evenly spaced hues, lively but balanced.'],
    ['Value does the work; hue gets the credit.', 'Mix greys from complements, not from black.'],
  ],
  'Home lab network': [['WAN -> router (VLANs 10, 20, 30)', 'VLAN 10: servers, VLAN 20: IoT, VLAN 30: guests', 'NAS backs up nightly to an offsite disk.']],
};
