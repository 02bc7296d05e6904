/**
 * The name of the cookie that tells the web app a session may exist. The refresh token itself is
 * httpOnly (no script can read it); this companion holds no secret, is set and cleared with it, and
 * lets a visitor without a session skip the refresh call that can only be refused.
 */
export const SESSION_HINT_COOKIE = 'branchify_session';

/**
 * The texts every page of the web app may need before anything else (its session and request
 * handling), here rather than in messages.ts so the browser's first download does not carry all
 * of MESSAGES (which spells them through these).
 */
export const SESSION_MESSAGES = {
  unauthenticated: 'Unauthenticated.',
  genericFailure: 'An Error Occurred',
  accountSuspended: 'Your account has been suspended. Please contact support.',
} as const;
