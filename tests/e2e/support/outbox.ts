import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { e2eDirs } from './env';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  link: string;
}

/** The newest mail to `email` in the server's outbox, waiting up to 15 s for the worker to write it. */
export async function latestMailTo(email: string, opts: { subject?: RegExp; timeoutMs?: number } = {}): Promise<Mail> {
  const { outboxDir } = e2eDirs();
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  for (;;) {
    const files = (await readdir(outboxDir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort().reverse();
    for (const file of files) {
      const mail = JSON.parse(await readFile(path.join(outboxDir, file), 'utf8')) as Mail;
      if (mail.to.toLowerCase() === email.toLowerCase() && (!opts.subject || opts.subject.test(mail.subject))) return mail;
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${email} in ${outboxDir}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
