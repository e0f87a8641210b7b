import { pino, type Logger } from 'pino';
import type { Config } from './config';

export function createLogger(config: Pick<Config, 'LOG_LEVEL' | 'NODE_ENV'>, name = 'server'): Logger {
  const pretty = config.NODE_ENV !== 'production' && process.stdout.isTTY;
  return pino({
    name,
    level: config.LOG_LEVEL,
    redact: ['req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.token'],
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, ignore: 'pid,hostname' } } } : {}),
  });
}
