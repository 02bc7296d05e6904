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

/* One factory per status the API answers with; `new AppError(<number>)` elsewhere is a lint error. */
export const badRequest = (message: string = MESSAGES.genericFailure) => new AppError(400, message);
export const unauthenticated = (message: string = MESSAGES.unauthenticated) => new AppError(401, message);
export const paymentRequired = (message: string) => new AppError(402, message);
export const forbidden = (message: string = MESSAGES.unauthorized) => new AppError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const payloadTooLarge = (message: string = MESSAGES.requestTooLarge) => new AppError(413, message);
export const unprocessable = (message: string, errors?: FieldErrors) => new AppError(422, message, errors);
export const validationError = (errors: FieldErrors, message: string = MESSAGES.validationFailed) => unprocessable(firstMessage(errors) ?? message, errors);
export const tooManyRequests = (retryAfterSeconds: number, message: string = MESSAGES.tooManyRequests) =>
  new AppError(429, message, undefined, { 'Retry-After': String(retryAfterSeconds) });
/** A service we depend on (Stripe, the update feed) failed or answered wrongly. */
export const badGateway = (message: string) => new AppError(502, message);
/** Not configured, or busy: `retryAfterSeconds` says when to try again. */
export const serviceUnavailable = (message: string, retryAfterSeconds?: number) =>
  new AppError(503, message, undefined, retryAfterSeconds === undefined ? undefined : { 'Retry-After': String(retryAfterSeconds) });

/** An error for a status computed at run time (a refusal that carries its own status). */
export const errorWithStatus = (status: number, message: string) => new AppError(status, message);

/** The sentence a form shows at the top: the first field message (as Laravel-style clients expect). */
const firstMessage = (errors: FieldErrors): string | undefined => Object.values(errors).find((m) => m.length)?.[0];
