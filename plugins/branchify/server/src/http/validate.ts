import { z } from 'zod';
import { validationError, type FieldErrors } from './errors';

/**
 * Parses a request body (or query) against a zod schema; failures become a 422 whose errors are
 * keyed by the spec's field names (a nested path is joined with dots: `videos.0.title`).
 */
export const parse = <S extends z.ZodType>(schema: S, input: unknown): z.output<S> => {
  const result = schema.safeParse(input ?? {});
  if (result.success) return result.data;
  throw validationError(toFieldErrors(result.error));
};

const toFieldErrors = (error: z.ZodError): FieldErrors => {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
};
