import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { bulkFan } from '../../scripts/seed/cast';
import { e2eBaseURL, trpcMutation } from './support/app';

/**
 * Issue 24 item 5 in the browser: a live event lost on its way (as during a Redis outage, while
 * the tab's socket stays connected) is made good when the server sends `resync`: the open thread
 * catches up (`messages.since`, and what the page shows is read again) without a reload. The
 * socket's frames pass through the test (Playwright's WebSocket routing), which drops the
 * `message:new` frames and then sends the `resync` a server copy sends when its Redis
 * subscription is back (tests/integration/redis-outage-clients.test.ts shows the server's side).
 * The two people are demo bulk fans no other spec messages (fan37, fan38).
 */
const READER = { email: 'fan37@demo.test', username: 'quinn.cohen37' };
const WRITER = { email: 'fan38@demo.test', username: 'rosa.cohen38' };

const thread = (page: Page) => page.getByRole('list', { name: 'Messages' });
const bubble = (page: Page, text: string) => thread(page).getByTestId('message').filter({ has: page.getByText(text, { exact: true }) });

test('a message whose live event was lost appears in the open thread once the server says resync', async ({ browser }) => {
  const base = e2eBaseURL();
  const writer = await browser.newContext({ baseURL: base });
  expect((await trpcMutation(writer.request, base, 'auth.signIn', { email: WRITER.email, password: 'demo-password' })).status).toBe(200);
  const send = async (content: string) =>
    expect((await trpcMutation(writer.request, base, 'messages.send', { username: READER.username, content, clientId: randomUUID() })).status).toBe(200);
  await send(`Hello before the outage ${Date.now()}`);

  const reader = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  expect((await trpcMutation(reader.request, base, 'auth.signIn', { email: READER.email, password: 'demo-password' })).status).toBe(200);
  let dropNewMessages = false;
  let toPage: ((frame: string) => void) | null = null;
  await reader.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((frame) => server.send(frame));
    server.onMessage((frame) => {
      if (dropNewMessages && typeof frame === 'string' && frame.includes('"message:new"')) return;
      ws.send(frame);
    });
    toPage = (frame) => ws.send(frame);
  });
  const page = await reader.newPage();
  await page.goto(`/messages/${WRITER.username}`);

  // live first: a message sent now shows without a reload
  const live = `Arrives live ${Date.now()}`;
  await expect(thread(page)).toBeVisible();
  await expect.poll(() => toPage !== null).toBe(true);
  await page.waitForTimeout(500);
  await send(live);
  await expect(bubble(page, live)).toBeVisible();

  // its event lost: nothing shows
  dropNewMessages = true;
  const lost = `Sent while events were lost ${Date.now()}`;
  await send(lost);
  await page.waitForTimeout(2_000);
  await expect(bubble(page, lost)).toHaveCount(0);

  // the server says resync (engine.io message 4, socket.io event 2): the tab catches up
  toPage!('42["resync"]');
  await expect(bubble(page, lost)).toBeVisible({ timeout: 10_000 });
  await reader.close();
  await writer.close();
});

/**
 * Issue 44 item 3.3: the same on /messages with no thread open. The chat list is kept current by
 * the `message:new` events; with them lost (and the badge's `unread:changed` too, as in an outage)
 * a message sent in the gap reaches the list once the server says `resync`. Two more bulk fans no
 * other spec messages (fan23, fan24).
 */
test('a message sent while events were lost reaches the chat list (no thread open) once the server says resync', async ({ browser }) => {
  const base = e2eBaseURL();
  const readerUser = bulkFan(22);
  const writerUser = bulkFan(23);
  const writer = await browser.newContext({ baseURL: base });
  expect((await trpcMutation(writer.request, base, 'auth.signIn', { email: writerUser.email, password: 'demo-password' })).status).toBe(200);
  const send = async (content: string) =>
    expect((await trpcMutation(writer.request, base, 'messages.send', { username: readerUser.username, content, clientId: randomUUID() })).status).toBe(200);
  await send(`Hello before the outage ${Date.now()}`);

  const reader = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 800 } });
  expect((await trpcMutation(reader.request, base, 'auth.signIn', { email: readerUser.email, password: 'demo-password' })).status).toBe(200);
  let dropEvents = false;
  let toPage: ((frame: string) => void) | null = null;
  await reader.routeWebSocket(/\/socket\.io\//, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((frame) => server.send(frame));
    server.onMessage((frame) => {
      if (dropEvents && typeof frame === 'string' && (frame.includes('"message:new"') || frame.includes('"unread:changed"'))) return;
      ws.send(frame);
    });
    toPage = (frame) => ws.send(frame);
  });
  const page = await reader.newPage();
  await page.goto('/messages');
  const conversation = page
    .getByRole('list', { name: 'Conversations' })
    .getByTestId('chat-row')
    .filter({ has: page.getByText(`@${writerUser.username}`, { exact: true }) });
  const preview = conversation.getByTestId('chat-preview');
  await expect(conversation).toHaveCount(1);

  // live first: the list shows a message sent now without a reload
  const live = `Arrives live ${Date.now()}`;
  await expect.poll(() => toPage !== null).toBe(true);
  await page.waitForTimeout(500);
  await send(live);
  await expect(preview).toHaveText(live);

  // its events lost: the list stays as it was
  dropEvents = true;
  const lost = `Sent while events were lost ${Date.now()}`;
  await send(lost);
  await page.waitForTimeout(2_000);
  await expect(preview).toHaveText(live);

  // the server says resync: the list catches up
  toPage!('42["resync"]');
  await expect(preview).toHaveText(lost, { timeout: 10_000 });
  await reader.close();
  await writer.close();
});
