import { ConfigError, parseEnv } from '@branchify/shared/node';

const secrets = {
  APP_KEYS: 'k1,k2',
  API_TOKEN_SALT: 'x'.repeat(16),
  ADMIN_JWT_SECRET: 'x'.repeat(16),
  TRANSFER_TOKEN_SALT: 'x'.repeat(16),
  JWT_SECRET: 'x'.repeat(16),
  ENCRYPTION_KEY: 'x'.repeat(16),
};

describe('configuration', () => {
  it('applies the documented defaults', () => {
    const env = parseEnv(secrets);
    expect(env).toMatchObject({
      PORT: 1337,
      HOST: '0.0.0.0',
      PUBLIC_URL: 'http://localhost:1337',
      DATABASE_POOL_MAX: 10,
      PROXY_ENABLED: false,
      ACCESS_TOKEN_TTL_SECONDS: 900,
      PASSWORD_RESET_TTL_MINUTES: 60,
    });
    expect(env.APP_KEYS).toEqual(['k1', 'k2']);
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.DATABASE_FILENAME).toMatch(/cms[\\/]\.tmp[\\/]data\.db$/);
  });

  it('stops with a message naming each bad variable', () => {
    const attempt = () => parseEnv({ ...secrets, PORT: 'eighty', DATABASE_URL: 'mysql://x', PROXY_ENABLED: 'maybe' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toMatch(/PORT must be a whole number \(got "eighty"\)/);
      expect(message).toMatch(/DATABASE_URL must be a postgres:\/\/ URL/);
      expect(message).toMatch(/PROXY_ENABLED must be true or false/);
    }
  });

  it('requires the secrets (generated into .env on first start when absent)', () => {
    expect(() => parseEnv({})).toThrow(/JWT_SECRET is required/);
  });

  it('treats an empty value as unset', () => {
    expect(parseEnv({ ...secrets, PORT: '' }).PORT).toBe(1337);
  });

  it('needs a region and credentials with S3_BUCKET, and never repeats a secret value', () => {
    expect(parseEnv(secrets).S3_BUCKET).toBeUndefined();
    expect(() => parseEnv({ ...secrets, S3_BUCKET: 'media', S3_SECRET_ACCESS_KEY: 'very-secret-value' })).toThrow(
      /S3_REGION is required when S3_BUCKET is set[\s\S]*S3_ACCESS_KEY_ID is required when S3_BUCKET is set/,
    );
    const s3 = { S3_BUCKET: 'media', S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'very-secret-value' };
    expect(parseEnv({ ...secrets, ...s3 })).toMatchObject({ S3_FORCE_PATH_STYLE: false, S3_ACL: 'public-read' });
    try {
      parseEnv({ ...secrets, JWT_SECRET: 'short-secret', ...s3 });
      throw new Error('accepted a short JWT_SECRET');
    } catch (error) {
      expect((error as Error).message).toMatch(/JWT_SECRET .*\(got a value, not shown\)/);
      expect((error as Error).message).not.toContain('short-secret');
    }
  });
});
