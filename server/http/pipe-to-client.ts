import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Streams a stored file to the response. A client that goes away mid-download (a closed tab, an
 * image scrolled past) ends the pipe with ERR_STREAM_PREMATURE_CLOSE: that is not an error.
 */
export async function pipeToClient(source: Readable, res: NodeJS.WritableStream): Promise<void> {
  try {
    await pipeline(source, res);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') throw error;
  }
}
