import { CONTENT_LIMITS, messageTemplates } from '@branchify/shared';

/** The branch image refusal, naming the limit the server applies too. */
export const BRANCH_IMAGE_TOO_LARGE: string = messageTemplates.imageTooLarge(CONTENT_LIMITS.branchImageKb);
