import path from 'node:path';
import { SERVER_ENTRIES, type ServerEntry } from '../../scripts/build-server';

/**
 * How a test starts the server or the worker as a process of its own: from the run's bundle
 * (scripts/build-server.ts), which the global setups of the integration and browser runs build
 * once into SERVER_BUNDLE_DIR, or from the source through tsx when there is none (a file run on
 * its own without the setup). The bundle is the same source, ready in a third of the CPU.
 */
export function serverCommand(entry: ServerEntry): { command: string; args: string[] } {
  const bundle = process.env.SERVER_BUNDLE_DIR;
  return { command: process.execPath, args: bundle ? [path.join(bundle, SERVER_ENTRIES[entry])] : ['--import', 'tsx', entry] };
}
