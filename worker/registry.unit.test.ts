import { describe, expect, it } from 'vitest';
import { JOB_NAMES, QUEUE_NAMES } from '../common/jobs';
import { assertComplete, type HandlerRegistry } from './registry';
import { registry } from './workers';

/**
 * Issue 25 item 9: the worker's start-up check reads its job names from common/jobs.ts
 * (JOB_NAMES, compile-checked against the job contracts), not from a list of its own that drifts.
 */
describe('the handler registry and the job contracts', () => {
  it('has a handler for exactly the job names of every queue of common/jobs.ts', () => {
    for (const queue of QUEUE_NAMES) {
      expect(Object.keys(registry[queue]).sort(), queue).toEqual([...JOB_NAMES[queue]].sort());
    }
    expect(() => assertComplete(registry, JOB_NAMES)).not.toThrow();
  });

  it('refuses to start when a contract has no handler', () => {
    const { 'export-ready': _dropped, ...mail } = registry.mail;
    const incomplete = { ...registry, mail } as unknown as HandlerRegistry;
    expect(() => assertComplete(incomplete, JOB_NAMES)).toThrow('job "export-ready" on queue "mail" has no handler');
  });
});
