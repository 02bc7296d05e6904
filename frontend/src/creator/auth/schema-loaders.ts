/** Loaders of the sign-in pages' schemas (schemas.ts, a chunk of its own with zod); stable, so a form loads its schema once. */
export const loadLoginSchema = () => import('./schemas').then((m) => m.loginSchema);
export const loadRegisterSchema = () => import('./schemas').then((m) => m.registerSchema);
export const loadForgotSchema = () => import('./schemas').then((m) => m.forgotSchema);
export const loadResetSchema = () => import('./schemas').then((m) => m.resetSchema);
