import { MESSAGES } from '@branchify/shared';

export type FieldErrors = Record<string, string[]>;

/**
 * The one error type controllers and services throw. The error middleware turns it into the /api
 * envelope; `status` follows the table in docs/api.md.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    /** Extra headers the response must carry (Retry-After on 429). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  /** What the log says of a failure on our side (never sent to the client). */
  detail?: string;
}

export const validationError = (errors: FieldErrors, message: string = MESSAGES.validationFailed) => new AppError(422, firstMessage(errors) ?? message, errors);
export const unauthenticated = () => new AppError(401, MESSAGES.unauthenticated);
export const forbidden = (message: string = MESSAGES.unauthorized) => new AppError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, MESSAGES.tooManyRequests, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** The sentence a form shows at the top: the first field message (as Laravel-style clients expect). */
const firstMessage = (errors: FieldErrors): string | undefined => Object.values(errors).find((m) => m.length)?.[0];
