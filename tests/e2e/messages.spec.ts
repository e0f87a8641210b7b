import { expect, test, type Browser, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MESSAGE_TEXTS } from '../../common/texts';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { flatPng, makeVideo } from '../helpers/media-fixtures';
import { e2eBaseURL, imagesSettled, newPageAs, signIn, toasts, trpcMutation } from './support/app';
import { latestMailTo } from './support/outbox';

/**
 * Issue 12's "Done when", in two browsers: two new users who have never talked. A opens B's
 * profile, presses Message, sends a text with Enter and an image; B, on another page, sees the
 * badge go to 1 then 2 live, opens /messages (preview with its time), opens the thread; A sees two
 * checks; B replies to A's image; A edits then deletes a message and reacts with fire: each
 * change shows in the other browser without a reload. B reports a message, an admin sees it in
 * /admin/reports. A blocks B; B can no longer send.
 */

const screens = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../.artifacts/screens');
const PASSWORD = 'a-good-password';

interface Person {
  page: Page;
  username: string;
  displayName: string;
}

/** A new account made through the API (sign up, the mailed confirmation), signed in in its own browser. */
async function newPerson(browser: Browser, first: string): Promise<Person> {
  const stamp = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
  const username = `${first.toLowerCase()}${stamp}`;
  const email = `${username}@example.test`;
  const context = await browser.newContext({ baseURL: e2eBaseURL(), viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const signUp = await trpcMutation(page.request, e2eBaseURL(), 'auth.signUp', {
    email,
    password: PASSWORD,
    username,
    firstName: first,
    surname: 'Tester',
    dateOfBirth: '1990-01-01',
    acceptTerms: true,
  });
  expect(signUp.status, signUp.message ?? '').toBe(200);
  const token = new URL((await latestMailTo(email, { subject: /confirm/i })).link).searchParams.get('token');
  expect((await trpcMutation(page.request, e2eBaseURL(), 'auth.confirmEmail', { token })).status).toBe(200);
  await signIn(page, email, PASSWORD);
  return { page, username, displayName: `${first} Tester` };
}

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const messagesLink = (page: Page) => nav(page).getByRole('link', { name: /^Messages/ });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message', exact: true });
const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });
// the text itself, exactly: a bubble's whole text runs on into its time ('Bulk 2' + '11:33' holds 'Bulk 21')
const bubble = (page: Page, text: string) => thread(page).getByTestId('message').filter({ has: page.getByText(text, { exact: true }) });

async function openActions(page: Page, message: ReturnType<typeof bubble>) {
  await message.hover();
  await message.getByRole('button', { name: 'Message actions' }).click();
}

async function screenshots(page: Page, name: string) {
  for (const [width, height] of [
    [1280, 800],
    [375, 812],
  ] as const) {
    await page.setViewportSize({ width, height });
    await imagesSettled(page);
    await page.screenshot({ path: path.join(screens, `${name}-${width}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('two people message each other live: text, image, read receipts, reply, edit, delete, reaction, block', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await newPerson(browser, 'Alma');
  const b = await newPerson(browser, 'Bruno');

  // B waits on another page: no badge yet
  await b.page.goto('/explore');
  await expect(messagesLink(b.page)).toHaveText('Messages');

  // A: B's profile → Message → an empty thread
  await a.page.goto(`/${b.username}`);
  await a.page.getByRole('link', { name: 'Message', exact: true }).click();
  await expect(a.page).toHaveURL(new RegExp(`/messages/${b.username}$`));
  await expect(a.page.getByRole('heading', { level: 1, name: b.displayName })).toBeVisible();
  await expect(a.page.getByText(`@${b.username}`)).toBeVisible();
  await expect(a.page.getByText(MESSAGE_TEXTS.empty)).toBeVisible();

  // a text with Enter (trimmed; Shift+Enter would be a new line)
  await composer(a.page).fill('  Hello Bruno  ');
  await composer(a.page).press('Enter');
  await expect(bubble(a.page, 'Hello Bruno').getByRole('img', { name: 'Sent' })).toBeVisible();
  await expect(composer(a.page)).toHaveValue('');
  await expect(messagesLink(b.page)).toHaveText(/^Messages\s*1 unread$/);

  // an image: preview first, then sent
  await a.page.getByTestId('attachment-input').setInputFiles({ name: 'sunset.png', mimeType: 'image/png', buffer: await flatPng(320, 200, '#e07b39') });
  await expect(a.page.getByTestId('attachment-preview').getByRole('img')).toBeVisible();
  await a.page.getByRole('button', { name: 'Send message' }).click();
  await expect(thread(a.page).getByTestId('message-image')).toBeVisible({ timeout: 30_000 });
  await expect(messagesLink(b.page)).toHaveText(/^Messages\s*2 unread$/);

  // B: the chat list with A's conversation, its last message and time
  await messagesLink(b.page).click();
  await expect(b.page.getByRole('heading', { level: 1, name: 'Messages' })).toBeVisible();
  const row = b.page.getByTestId('chat-row').filter({ hasText: a.displayName });
  await expect(row.getByTestId('chat-preview')).toHaveText('Photo');
  await expect(row.getByTestId('chat-time')).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{2}:\d{2}$/);
  await expect(row.getByTestId('chat-unread')).toContainText('2');
  await screenshots(b.page, 'messages-list');

  // B opens the thread: both messages are read; A sees two checks without a reload
  await row.click();
  await expect(b.page).toHaveURL(new RegExp(`/messages/${a.username}$`));
  await expect(bubble(b.page, 'Hello Bruno')).toBeVisible();
  await expect(thread(b.page).getByTestId('message-image')).toBeVisible();
  await expect(messagesLink(b.page)).toHaveText('Messages');
  await expect(thread(a.page).getByRole('img', { name: 'Read' })).toHaveCount(2);

  // B replies to A's image: A sees the reply with its quote
  const image = thread(b.page).getByTestId('message').filter({ has: b.page.getByTestId('message-image') });
  await openActions(b.page, image);
  await b.page.getByRole('menuitem', { name: 'Reply' }).click();
  await expect(b.page.getByText(`Replying to ${a.displayName}`)).toBeVisible();
  await composer(b.page).fill('What a sunset!');
  await composer(b.page).press('Enter');
  const reply = bubble(a.page, 'What a sunset!');
  await expect(reply.getByTestId('reply-quote')).toContainText('Photo');
  await screenshots(b.page, 'messages-thread');

  // A edits the text: B sees the new words, marked edited
  await openActions(a.page, bubble(a.page, 'Hello Bruno'));
  await a.page.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(composer(a.page)).toHaveValue('Hello Bruno');
  await composer(a.page).fill('Hello again, Bruno');
  await composer(a.page).press('Enter');
  await expect(toasts(a.page).getByText(MESSAGE_TEXTS.updated, { exact: true })).toBeVisible();
  await expect(bubble(b.page, 'Hello again, Bruno')).toContainText('edited');

  // ... then deletes it: gone for B too
  await openActions(a.page, bubble(a.page, 'Hello again, Bruno'));
  await a.page.getByRole('menuitem', { name: 'Delete' }).click();
  await a.page.getByRole('alertdialog').getByRole('button', { name: 'Delete message' }).click();
  await expect(toasts(a.page).getByText(MESSAGE_TEXTS.deleted, { exact: true })).toBeVisible();
  await expect(bubble(b.page, 'Hello again, Bruno')).toHaveCount(0);
  await expect(bubble(a.page, 'Hello again, Bruno')).toHaveCount(0);

  // A reacts with fire to B's reply: B sees the count
  await openActions(a.page, reply);
  await a.page.getByRole('menuitem', { name: 'React with fire' }).click();
  await expect(bubble(b.page, 'What a sunset!').getByRole('button', { name: 'fire: 1' })).toBeVisible();

  // B reports A's image; an admin finds it among the open reports and closes it
  await openActions(b.page, image);
  await b.page.getByRole('menuitem', { name: 'Report' }).click();
  await b.page.getByRole('alertdialog').getByLabel('Reason').fill('Testing the report flow');
  await b.page.getByRole('alertdialog').getByRole('button', { name: 'Report' }).click();
  await expect(toasts(b.page).getByText('Report sent', { exact: true })).toBeVisible();
  const admin = await newPageAs(browser, 'admin', { at: '/admin/reports' });
  const report = admin.getByTestId('report').filter({ hasText: 'Testing the report flow' });
  await expect(report).toContainText(b.displayName);
  await expect(report).toContainText(a.displayName);
  await screenshots(admin, 'admin-reports');
  // opening it (logged) shows the reported picture from the report's own copy
  await report.getByRole('button', { name: 'Open report' }).click();
  const evidence = report.getByTestId('report-evidence');
  await expect(evidence.getByRole('img', { name: /^Reported file/ })).toBeVisible();
  await expect.poll(() => evidence.getByRole('img', { name: /^Reported file/ }).evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(evidence.getByRole('button', { name: 'Suspend account' })).toBeVisible();
  await screenshots(admin, 'admin-report-open');
  await report.getByRole('button', { name: 'Close report' }).click();
  await expect(report).toHaveCount(0);

  // paging: 21 more from B (through the API); A reloads: the newest 20, and scrolling up brings
  // the older ones above without moving what was on screen
  const stamp = Date.now().toString(36);
  for (let i = 1; i <= 21; i++) {
    const sent = await trpcMutation(b.page.request, e2eBaseURL(), 'messages.send', { username: a.username, content: `Bulk ${i}`, clientId: `bulk-${stamp}-${i}` });
    expect(sent.status, sent.message ?? '').toBe(200);
  }
  await a.page.reload();
  await expect(bubble(a.page, 'Bulk 21')).toBeVisible();
  await expect(thread(a.page).getByTestId('message')).toHaveCount(20);
  // where 'Bulk 2' is once at the top, measured in the same task as the scroll (before the page can load)
  const bulk2Top = (scrollFirst: boolean) =>
    a.page.getByTestId('message-scroller').evaluate((el, scroll) => {
      if (scroll) el.scrollTop = 0;
      const node = [...el.querySelectorAll('[data-testid="message"]')].find((n) => n.querySelector('p')?.textContent === 'Bulk 2');
      return node!.getBoundingClientRect().top;
    }, scrollFirst);
  const anchorBefore = await bulk2Top(true);
  await expect(thread(a.page).getByTestId('message')).toHaveCount(23);
  await expect(bubble(a.page, 'What a sunset!')).toBeAttached();
  // and once the older page's image has its bytes (it grew by its height when it had no box)
  await expect.poll(() => thread(a.page).getByTestId('message-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  const anchorAfter = await bulk2Top(false);
  expect(Math.abs(anchorAfter - anchorBefore)).toBeLessThan(40);
  // the older page itself, at the top (no sentinel left above it)
  await a.page.getByTestId('message-scroller').evaluate((el) => (el.scrollTop = 0));
  await screenshots(a.page, 'messages-thread-older');

  // A blocks B: A's composer gives way; B's open thread follows at once, before B tries to write
  await a.page.getByRole('button', { name: 'Conversation options' }).click();
  await a.page.getByRole('menuitem', { name: 'Block' }).click();
  await a.page.getByRole('alertdialog').getByRole('button', { name: 'Block' }).click();
  await expect(a.page.getByTestId('messaging-unavailable')).toContainText('You blocked this user');
  await expect(b.page.getByTestId('messaging-unavailable')).toContainText('Messaging is unavailable');
  await expect(composer(b.page)).toHaveCount(0);
});

test('a block shows in both open threads at once: the composer gives way to the reason and the online dot goes', async ({ browser }) => {
  const a = await newPerson(browser, 'Ines');
  const b = await newPerson(browser, 'Jonas');
  const hello = await trpcMutation(a.page.request, e2eBaseURL(), 'messages.send', { username: b.username, content: 'Hi Jonas', clientId: `block-${Date.now()}` });
  expect(hello.status, hello.message ?? '').toBe(200);
  await a.page.goto(`/messages/${b.username}`);
  await b.page.goto(`/messages/${a.username}`);
  await expect(bubble(b.page, 'Hi Jonas')).toBeVisible();
  // each sees the other online, and may write
  await expect(b.page.getByTestId('online-dot')).toBeVisible();
  await expect(a.page.getByTestId('online-dot')).toBeVisible();
  await expect(composer(b.page)).toBeVisible();

  await a.page.getByRole('button', { name: 'Conversation options' }).click();
  await a.page.getByRole('menuitem', { name: 'Block' }).click();
  await a.page.getByRole('alertdialog').getByRole('button', { name: 'Block' }).click();

  // no reload on either side
  await expect(a.page.getByTestId('messaging-unavailable')).toContainText('You blocked this user');
  await expect(b.page.getByTestId('messaging-unavailable')).toContainText('Messaging is unavailable in this conversation.');
  await expect(composer(b.page)).toHaveCount(0);
  await expect(composer(a.page)).toHaveCount(0);
  await expect(b.page.getByTestId('online-dot')).toHaveCount(0);
  await expect(a.page.getByTestId('online-dot')).toHaveCount(0);
  await screenshots(b.page, 'messages-blocked-live');

  // unblocking brings B's composer back, live too
  await a.page.getByTestId('messaging-unavailable').getByRole('button', { name: 'Unblock' }).click();
  await expect(composer(b.page)).toBeVisible();
  await expect(composer(a.page)).toBeVisible();
});

test('a video sent while it is still processing opens on both sides when it is ready, without a reload', async ({ browser }) => {
  test.setTimeout(240_000);
  const a = await newPerson(browser, 'Vera');
  const b = await newPerson(browser, 'Walt');
  const dir = await mkdtemp(path.join(tmpdir(), 'e2e-chat-video-'));
  try {
    const video = await readFile(await makeVideo(dir, { name: 'clip.mp4', seconds: 3, width: 320, height: 240 }));
    await b.page.goto(`/messages/${a.username}`);
    await a.page.goto(`/messages/${b.username}`);
    await expect(a.page.getByText(MESSAGE_TEXTS.empty)).toBeVisible();

    await a.page.getByTestId('attachment-input').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: video });
    await expect(a.page.getByTestId('attachment-preview')).toBeVisible();
    await composer(a.page).fill('Watch this');
    await a.page.getByRole('button', { name: 'Send message' }).click();
    // both threads get the message at once; the video opens in each when the worker is done with it
    // (the `message:attachment` event: neither page reloads or refetches the thread)
    await expect(bubble(b.page, 'Watch this')).toBeVisible();
    for (const page of [a.page, b.page]) {
      await expect(bubble(page, 'Watch this').getByTestId('message-video')).toBeVisible({ timeout: 60_000 });
      await expect(bubble(page, 'Watch this').getByText(/^Processing clip\.mp4/)).toHaveCount(0);
    }
    // then its HLS ladder (issue 49): once made, the recipient's bubble streams it (the MP4 until then)
    await expect
      .poll(
        async () => {
          await b.page.reload();
          const player = bubble(b.page, 'Watch this').getByTestId('message-video');
          await expect(player).toHaveAttribute('data-playback', /.+/, { timeout: 15_000 });
          return player.getAttribute('data-playback');
        },
        { timeout: 90_000, intervals: [2_000] },
      )
      .toBe('hls.js');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
