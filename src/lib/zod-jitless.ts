/**
 * Zod without its compiled parsers. Zod probes whether it may compile code (`new Function`)
 * when it builds its first object schema; our Content-Security-Policy forbids that, so the probe
 * failed anyway and the browser reported a CSP violation on every page that loads zod (Chrome's
 * Issues panel, Lighthouse best practices, issue 30). Zod reads this setting from globalThis,
 * so setting it here, before any module builds a schema, needs no import of zod itself (which
 * the landing page does not load). Parsing is the same, only not compiled.
 */
const holder = globalThis as typeof globalThis & { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };
