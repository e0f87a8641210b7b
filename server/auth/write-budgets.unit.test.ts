import { describe, expect, it } from 'vitest';
import { appRouter } from '../trpc/router';
import { BUDGETS, httpWriteBudget, PROCEDURE_BUDGETS } from './write-budgets';

const mutations = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>)
  .filter(([, procedure]) => procedure._def.type === 'mutation')
  .map(([path]) => path);

describe('write budgets table', () => {
  it('has a budget for every mutation of appRouter (add one to PROCEDURE_BUDGETS with a new mutation)', () => {
    expect(mutations.length).toBeGreaterThan(40);
    expect(mutations.filter((path) => !Object.hasOwn(PROCEDURE_BUDGETS, path))).toEqual([]);
  });

  it('names only mutations that exist and budgets that exist', () => {
    expect(Object.keys(PROCEDURE_BUDGETS).filter((path) => !mutations.includes(path))).toEqual([]);
    expect(Object.values(PROCEDURE_BUDGETS).filter((name) => !Object.hasOwn(BUDGETS, name))).toEqual([]);
  });

  it('gives each address more room than each user', () => {
    for (const budget of Object.values(BUDGETS)) expect(budget.ip.points).toBeGreaterThanOrEqual(budget.user.points);
  });

  it('keeps the special limits underneath: their budget is wider, so their own words answer first', () => {
    expect(BUDGETS.messageSend.user.points).toBeGreaterThan(30);
    expect(BUDGETS.attachment.user.points).toBeGreaterThan(20);
    expect(BUDGETS.credentials.ip.points).toBeGreaterThan(10);
  });

  it('finds the budget of the HTTP write routes, and a default for the rest', () => {
    expect(httpWriteBudget('POST', '/avatar')).toBe('avatar');
    expect(httpWriteBudget('POST', '/message-attachments')).toBe('attachment');
    expect(httpWriteBudget('POST', '/uploads')).toBe('uploadCreate');
    expect(httpWriteBudget('PATCH', '/uploads/0123456789abcdef0123456789abcdef')).toBe('uploadChunk');
    expect(httpWriteBudget('DELETE', '/uploads/0123456789abcdef0123456789abcdef')).toBe('uploadChunk');
    expect(httpWriteBudget('POST', '/admin/queues/api/queues/media/retry/failed')).toBe('other');
  });
});
