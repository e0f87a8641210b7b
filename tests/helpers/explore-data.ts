import { sql } from 'kysely';
import type { DB } from '../../core/db/kysely';

/**
 * Realistic Explore data made in SQL (generate_series), for the Explore bench and the plan test:
 * creators with first-and-last-name display names and usernames, one or two of the four
 * categories, 2% private and 1% hidden; posts of 4 to 11 words drawn from a skewed vocabulary
 * (a few words are everywhere, most are rare, as in real text) plus one made-up word from a
 * long tail of 64,000 (each in a few posts), and a hashtag; 5% drafts, 25%
 * premium, one every minute. Deterministic: the same sizes give the same rows.
 */

export const FIRST_NAMES = [
  'Ava', 'Leo', 'Maya', 'Kai', 'Noah', 'Theo', 'Janelle', 'Amara', 'Lucas', 'Zara', 'Mateo', 'Priya', 'Elena', 'Omar',
  'Chloe', 'Ravi', 'Sofia', 'Diego', 'Hana', 'Felix', 'Ines', 'Jonah', 'Keira', 'Liam', 'Mina', 'Nico', 'Olivia',
  'Pablo', 'Quinn', 'Rosa', 'Sami', 'Tara', 'Umar', 'Vera', 'Wes', 'Ximena', 'Yusuf', 'Zoe', 'Aiden', 'Bea', 'Caleb',
  'Dara', 'Ezra', 'Farah', 'Gus', 'Hugo', 'Isla', 'Jade', 'Kofi', 'Lena', 'Milo', 'Nia', 'Oscar', 'Pia', 'Rhys',
  'Sena', 'Tomas', 'Uma', 'Vik', 'Wren',
];
export const LAST_NAMES = [
  'Moreau', 'Okafor', 'Marsh', 'Nakamura', 'Dlamini', 'Fischer', 'Garcia', 'Haddad', 'Ivanova', 'Jensen', 'Khumalo',
  'Lindqvist', 'Mbeki', 'Novak', 'Oyelaran', 'Petrov', 'Quispe', 'Rossi', 'Sato', 'Tanaka', 'Usman', 'Vargas',
  'Wiśniewski', 'Xu', 'Yilmaz', 'Zulu', 'Abbott', 'Botha', 'Castillo', 'Dubois', 'Eriksen', 'Fontaine', 'Gupta',
  'Hoffman', 'Ibrahim', 'Jovanovic', 'Kowalski', 'Larsen', 'Mendes', 'Naidoo', 'Ortega', 'Pillay', 'Reyes',
  'Schmidt', 'Thompson', 'Van Wyk', 'Weber', 'Young', 'Zhang', 'Adeyemi', 'Baker', 'Chen', 'Diallo', 'Evans',
  'Ferreira', 'Greene', 'Hughes', 'Ito', 'Kruger', 'Lopez',
];
/** most frequent first: the vocabulary is drawn with a power law, so the tail words are rare */
export const WORDS = [
  'new', 'today', 'my', 'work', 'time', 'love', 'first', 'day', 'week', 'night', 'studio', 'live', 'music', 'art',
  'game', 'video', 'photo', 'track', 'session', 'stream', 'drawing', 'painting', 'build', 'project', 'update',
  'behind', 'scenes', 'process', 'sketch', 'colour', 'light', 'sound', 'beat', 'mix', 'guitar', 'piano', 'drums',
  'vocals', 'song', 'album', 'tour', 'show', 'stage', 'crowd', 'camera', 'lens', 'film', 'edit', 'render', 'model',
  'design', 'print', 'canvas', 'brush', 'ink', 'paper', 'clay', 'sculpture', 'portrait', 'landscape', 'city',
  'street', 'coast', 'mountain', 'forest', 'river', 'ocean', 'desert', 'garden', 'winter', 'summer', 'autumn',
  'spring', 'morning', 'evening', 'sunset', 'sunrise', 'storm', 'rain', 'snow', 'coffee', 'kitchen', 'recipe',
  'bread', 'travel', 'journey', 'road', 'train', 'flight', 'island', 'village', 'market', 'festival', 'concert',
  'rehearsal', 'practice', 'lesson', 'tutorial', 'guide', 'tips', 'review', 'unboxing', 'setup', 'keyboard',
  'mouse', 'monitor', 'console', 'controller', 'speedrun', 'record', 'level', 'boss', 'quest', 'puzzle', 'arcade',
  'retro', 'pixel', 'shader', 'engine', 'code', 'compiler', 'server', 'robot', 'circuit', 'solder', 'printer',
  'drone', 'telescope', 'galaxy', 'planet', 'nebula', 'comet', 'eclipse', 'aurora', 'lighthouse', 'harbour',
  'violin', 'cello', 'trumpet', 'saxophone', 'synthesizer', 'vinyl', 'cassette', 'microphone', 'headphones',
  'watercolour', 'charcoal', 'graphite', 'pastel', 'gouache', 'mural', 'graffiti', 'ceramics', 'pottery', 'glaze',
  'kiln', 'loom', 'embroidery', 'origami', 'calligraphy', 'typography', 'lettering', 'poster', 'zine', 'comic',
  'manga', 'animation', 'storyboard', 'character', 'creature', 'dragon', 'castle', 'knight', 'wizard', 'potion',
  'labyrinth', 'marathon', 'cycling', 'climbing', 'surfing', 'skating', 'yoga', 'meditation', 'harvest', 'orchard',
  'vineyard', 'bakery', 'espresso', 'matcha', 'saffron', 'cinnamon', 'lantern', 'compass', 'typewriter', 'hourglass',
  'kaleidoscope', 'chandelier', 'xylophone', 'harmonica', 'accordion', 'ukulele', 'didgeridoo', 'theremin',
];
/** syllables of the long tail: made-up words (names, places, slang) that appear in a handful of posts each */
export const SYLLABLES = [
  'ka', 'lo', 'mi', 'ra', 'ven', 'tor', 'sil', 'bel', 'dun', 'mar', 'qui', 'zel', 'fen', 'gor', 'hal', 'jin', 'kor', 'lum',
  'nar', 'ost', 'pel', 'rin', 'sva', 'tul', 'ur', 'vel', 'wyn', 'xan', 'yor', 'zin', 'bra', 'cle', 'dro', 'fla', 'gri',
  'ple', 'sto', 'tre', 'vri', 'spa',
];
export const TAGS = ['art', 'music', 'gaming', 'tech', 'wip', 'live', 'tutorial', 'behindthescenes', 'photography', 'design', 'retro', 'travel'];
export const CATEGORIES = ['Art', 'Music', 'Gaming', 'Technology'];

const textArray = (values: string[]) => sql`array[${sql.join(values.map((v) => sql.lit(v)))}]::text[]`;

/**
 * Users 1..creators are creators, then `fans` plain users. Ids are md5('u' || n)::uuid and
 * md5('p' || n)::uuid, usernames `<first><last><n>` in lower case.
 */
export async function seedExploreData(db: DB, opts: { creators: number; fans: number; posts: number }) {
  const users = opts.creators + opts.fans;
  const first = textArray(FIRST_NAMES);
  const last = textArray(LAST_NAMES);
  await sql`select setseed(0.42)`.execute(db);
  await sql`
    insert into users (id, email, password_hash, email_verified_at, created_at)
    select md5('u' || i)::uuid, 'u' || i || '@bench.test', 'x', now(), now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(users)}) i`.execute(db);
  await sql`
    insert into profiles (id, username, display_name, date_of_birth, is_creator, is_verified, is_premium, categories, created_at)
    select md5('u' || i)::uuid,
           left(regexp_replace(lower(f || l), '[^a-z]', '', 'g'), 20) || i,
           f || ' ' || l,
           '1990-01-01', i <= ${sql.lit(opts.creators)}, i % 97 = 0, i % 13 = 0,
           case when i > ${sql.lit(opts.creators)} then '{}'::text[]
                when i % 3 = 0 then array[c1, c2]
                else array[c1] end,
           now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(users)}) i,
         lateral (select (${first})[1 + i % ${sql.lit(FIRST_NAMES.length)}] as f,
                         (${last})[1 + (i / ${sql.lit(FIRST_NAMES.length)}) % ${sql.lit(LAST_NAMES.length)}] as l,
                         (${textArray(CATEGORIES)})[1 + (i * 7 / 3) % 4] as c1,
                         (${textArray(CATEGORIES)})[1 + ((i * 7 / 3) % 4 + 1 + (i / 5) % 3) % 4] as c2) pick`.execute(db);
  await sql`
    insert into privacy_settings (user_id, profile_visibility)
    select md5('u' || i)::uuid, case when i % 50 = 7 then 'private' when i % 100 = 11 then 'hidden' else 'public' end
    from generate_series(1, ${sql.lit(users)}) i`.execute(db);
  await sql`
    insert into subscription_tiers (id, creator_id, name, price_cents, payment_interval)
    select md5('t' || i)::uuid, md5('u' || i)::uuid, 'VIP Club', 5000, 'monthly' from generate_series(1, ${sql.lit(opts.creators)}) i`.execute(db);
  // the words: index = floor(N * random()^2.5), so the head of WORDS is common and the tail rare
  await sql`
    insert into posts (id, creator_id, title, post_text, hashtags, is_premium, status, target_status, media_kind, created_at, updated_at, published_at)
    select md5('p' || i)::uuid, md5('u' || (1 + (i * 7919) % ${sql.lit(opts.creators)}))::uuid, 'Post ' || i,
           words.text || ' ' || tail.word || ' #' || tag, array[tag],
           i % 4 = 0, case when i % 20 = 0 then 'draft' else 'published' end, case when i % 20 = 0 then 'draft' else 'published' end,
           (array['image', 'image', 'video', 'audio', 'pdf'])[1 + i % 5],
           now() - (i || ' minutes')::interval, now(), now() - (i || ' minutes')::interval
    from generate_series(1, ${sql.lit(opts.posts)}) i,
         lateral (select string_agg((${textArray(WORDS)})[1 + floor(${sql.lit(WORDS.length)} * power(random(), 2.5))::int], ' ') as text
                  from generate_series(1, 4 + i % 8) n) words,
         lateral (select (${textArray(TAGS)})[1 + i % ${sql.lit(TAGS.length)}] as tag) t,
         -- "0 * i" ties the draw to the row, so each post gets its own word
         lateral (select (${textArray(SYLLABLES)})[1 + floor(random() * ${sql.lit(SYLLABLES.length)})::int + 0 * i]
                      || (${textArray(SYLLABLES)})[1 + floor(random() * ${sql.lit(SYLLABLES.length)})::int]
                      || (${textArray(SYLLABLES)})[1 + floor(random() * ${sql.lit(SYLLABLES.length)})::int] as word) tail`.execute(db);
  // what autovacuum would have done by now: statistics, and the GIN pending lists merged
  await sql`vacuum analyze`.execute(db);
}
