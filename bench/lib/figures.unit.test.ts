import { describe, expect, it } from 'vitest';
import { figure, formatFigure, loadFigure } from './figures';

// bench/out/latest.json is compared run to run: the ratio must always read "higher is better".
describe('bench figures', () => {
  it('divides rates by their floor and floors by times, so a slower product always has a lower ratio', () => {
    expect(figure('images', 4, 5, 'images/s').ratio).toBe(0.8);
    expect(figure('video', 11, 10, 's').ratio).toBeCloseTo(0.909, 3);
    expect(figure('upload', 80, 100, 'MB/s').ratio).toBe(0.8);
  });

  it('records a load with both p99s and their ratio, and prints it beside its floor', () => {
    const f = loadFigure('feed', { rps: 650, p50Ms: 20, p99Ms: 60, requests: 6500, errors: 0 }, { rps: 1000, p50Ms: 15, p99Ms: 40, requests: 10000, errors: 0 });
    expect(f).toMatchObject({ name: 'feed', value: 650, floor: 1000, ratio: 0.65, p50: 20, p99: 60, floorP99: 40, p99Ratio: 1.5, unit: 'req/s' });
    expect(formatFigure(f)).toMatch(/650.*floor\s+1000\s+0\.65x.*p99 60/);
  });

  it('has no ratio when there is no floor or nothing was measured', () => {
    expect(figure('fan-out', 40, null, 'ms').ratio).toBeNull();
    expect(figure('feed', 0, 100, 'req/s').ratio).toBeNull();
  });
});
