import { describe, expect, it } from 'vitest';
import { downloadFileName } from './media';
import { postName } from './post-name';

describe('postName', () => {
  const creator = { displayName: 'Alice Doe', username: 'alice' };

  it('is the title when there is one', () => {
    expect(postName({ title: '  Golden hour ', creator })).toBe('Golden hour');
  });

  it('names an untitled post after its creator, by display name, else username', () => {
    expect(postName({ title: null, creator })).toBe('Post by Alice Doe');
    expect(postName({ title: '   ', creator })).toBe('Post by Alice Doe');
    expect(postName({ title: null, creator: { displayName: '', username: 'alice' } })).toBe('Post by alice');
  });

  it('gives an untitled post the same name in a download', () => {
    expect(downloadFileName(postName({ title: null, creator }), 'image/png', 'abcdef12-0000')).toBe('post-by-alice-doe.png');
  });
});
