/**
 * The sign-in pages' schemas, loaded on a form's first validation (with zod), so the pages
 * themselves render without zod (see SchemaSource in shared/form.tsx).
 */
export { forgotSchema, loginSchema, registerSchema, resetSchema } from '@branchify/shared';
