import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

function errorLines(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.lines;
    throw error;
  }
  return [];
}

describe('loadConfig', () => {
  it('runs on defaults alone', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/creator');
    expect(config.REDIS_PREFIX).toBe('creator');
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.cookieSecure).toBe(false);
  });

  it('says in one line per setting what is wrong', () => {
    const lines = errorLines({ PORT: 'eighty', DATABASE_URL: 'not a url', LOG_LEVEL: 'loud' });
    expect(lines).toHaveLength(3);
    expect(lines.some((l) => l.startsWith('Invalid setting PORT:'))).toBe(true);
    expect(lines.some((l) => l.startsWith('Invalid setting DATABASE_URL:'))).toBe(true);
    expect(lines.some((l) => l.startsWith('Invalid setting LOG_LEVEL:'))).toBe(true);
  });

  it('names each setting the S3 driver is missing', () => {
    expect(errorLines({ STORAGE_DRIVER: 's3', S3_BUCKET: 'media' })).toEqual([
      'Missing setting S3_ENDPOINT: required when STORAGE_DRIVER=s3',
      'Missing setting S3_ACCESS_KEY: required when STORAGE_DRIVER=s3',
      'Missing setting S3_SECRET_KEY: required when STORAGE_DRIVER=s3',
    ]);
  });

  it('turns on Secure cookies for an https APP_URL', () => {
    expect(loadConfig({ APP_URL: 'https://creators.example/' }).cookieSecure).toBe(true);
    expect(loadConfig({ APP_URL: 'https://creators.example/' }).appUrl).toBe('https://creators.example');
  });
});
