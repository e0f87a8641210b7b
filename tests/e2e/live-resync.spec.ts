import { expect, test, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
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
