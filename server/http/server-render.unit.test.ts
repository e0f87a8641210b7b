import { describe, expect, it } from 'vitest';
import { renderedMarkupCache } from './server-render';

/** A render that says for which call it was made, as a page shows whose it is. */
function counting() {
  let calls = 0;
  return { render: async (url: string) => `${url} #${++calls}`, calls: () => calls };
}

describe('the kept renderings of pages', () => {
  it("never serve one signed-in viewer's page to another, even for the same data", async () => {
    const { render, calls } = counting();
    const cache = renderedMarkupCache(render);
    const mine = await cache('/', 'fan-a', '{"same":"data"}');
    const theirs = await cache('/', 'fan-b', '{"same":"data"}');
    expect(theirs).not.toBe(mine);
    expect(calls()).toBe(2);
    // a reload by the same viewer is served from what was kept
    expect(await cache('/', 'fan-a', '{"same":"data"}')).toBe(mine);
    expect(calls()).toBe(2);
  });

  it('share one rendering between visitors for the same data, and render anew when it changes or ages', async () => {
    const { render, calls } = counting();
    let now = 0;
    const cache = renderedMarkupCache(render, () => now);
    const first = await cache('/ava', null, '{"bio":"a"}');
    // the moments React Query stamps on its answers are not the data
    expect(await cache('/ava', null, '{"dataUpdatedAt":5,"bio":"a"}')).toBe(first);
    expect(calls()).toBe(1);
    expect(await cache('/ava', 'fan-a', '{"bio":"a"}')).not.toBe(first);
    await cache('/ava', null, '{"bio":"b"}');
    expect(calls()).toBe(3);
    now = 30_001;
    await cache('/ava', null, '{"bio":"a"}');
    expect(calls()).toBe(4);
  });
});
