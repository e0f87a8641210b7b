import { z } from 'zod';
import { postId } from './ids';

// Apart from common/forensics.ts, whose texts the post menu and the screens read without zod.

/** forensics.traces: a post's traces */
export const TracesInput = z.object({ postId });
export type TracesInput = z.output<typeof TracesInput>;
