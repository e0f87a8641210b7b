import { describe, expect, it } from 'vitest';
import { LEAK_MAX_BYTES, TRACE_TEXTS } from '../../../common/forensics';
import { confidencePercent } from './trace-words';
import { leakFileProblem } from './upload-leak';

describe('the file a creator picks as a suspected leak', () => {
  it('takes a video or a picture up to the limit the server enforces', () => {
    expect(leakFileProblem({ type: 'video/mp4', size: LEAK_MAX_BYTES })).toBeNull();
    expect(leakFileProblem({ type: 'image/jpeg', size: 1 })).toBeNull();
  });

  it('refuses anything else before sending it', () => {
    expect(leakFileProblem({ type: 'text/plain', size: 10 })).toBe(TRACE_TEXTS.invalidType);
    expect(leakFileProblem({ type: '', size: 10 })).toBe(TRACE_TEXTS.invalidType);
    expect(leakFileProblem({ type: 'video/webm', size: LEAK_MAX_BYTES + 1 })).toBe(TRACE_TEXTS.tooLarge);
    expect(leakFileProblem({ type: 'image/png', size: 0 })).toBe(TRACE_TEXTS.empty);
  });
});

describe('the confidence of a named buyer', () => {
  it('is never rounded up to a certainty the trace did not reach', () => {
    expect(confidencePercent(0.99999)).toBe('99.99%');
    expect(confidencePercent(1)).toBe('100%');
    expect(confidencePercent(0.5)).toBe('50%');
  });
});
