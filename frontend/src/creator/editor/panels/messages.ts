import { MESSAGES } from '@branchify/shared';

/** The branch image refusal (the server's text for uploads over 2000 KB). */
export const BRANCH_IMAGE_TOO_LARGE: string = MESSAGES.branchImageTooLarge;
