import { env } from '@branchify/shared/node';

/**
 * What /cms operators may put in the Media Library: raster images only (the app's own image
 * uploads check and sanitise their files themselves and do not pass through this list).
 */
const security = { allowedTypes: ['image/png', 'image/jpeg', 'image/webp'] };

/** Uploads go to the S3 bucket when S3_BUCKET is set (config/src/env.ts checks the rest), to public/uploads otherwise. */
const upload = () => {
  const e = env();
  if (!e.S3_BUCKET) return { upload: { config: { security } } };
  return {
    upload: {
      config: {
        security,
        provider: 'aws-s3',
        providerOptions: {
          baseUrl: e.S3_PUBLIC_URL,
          s3Options: {
            credentials: { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY },
            region: e.S3_REGION,
            endpoint: e.S3_ENDPOINT,
            forcePathStyle: e.S3_FORCE_PATH_STYLE,
            // S3-compatible stores often refuse the SDK's default CRC32 checksums (headers and
            // trailers AWS added in 2025): there, checksums only where the operation requires one.
            ...(e.S3_ENDPOINT ? { requestChecksumCalculation: 'WHEN_REQUIRED', responseChecksumValidation: 'WHEN_REQUIRED' } : {}),
            // An ACL key that is present but undefined makes the provider send none.
            params: { Bucket: e.S3_BUCKET, ACL: e.S3_ACL === 'none' ? undefined : e.S3_ACL },
          },
        },
      },
    },
  };
};

export default () => ({
  branchify: { enabled: true, resolve: '../plugins/branchify' },
  'users-permissions': {
    config: {
      jwtSecret: env().JWT_SECRET,
      // Our own auth (plugin branchify) issues the tokens end users hold; see docs/decisions/001-auth-runs-in-our-plugin-outside-users-permissions-role-check.md.
      register: { allowedFields: ['first_name', 'last_name'] },
    },
  },
  ...upload(),
});
