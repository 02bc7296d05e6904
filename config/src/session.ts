/**
 * The name of the cookie that tells the web app a session may exist. The refresh token itself is
 * httpOnly (no script can read it); this companion holds no secret, is set and cleared with it, and
 * lets a visitor without a session skip the refresh call that can only be refused.
 */
export const SESSION_HINT_COOKIE = 'branchify_session';
