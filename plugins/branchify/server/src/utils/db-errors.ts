/** What the database said, read the same way on PostgreSQL and SQLite. */
export const codeOf = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
};
const messageOf = (error: unknown): string => String((error as Error)?.message ?? '');

/** A second row where a unique index allows one. */
export const isUniqueViolation = (error: unknown): boolean =>
  codeOf(error) === '23505' || codeOf(error).startsWith('SQLITE_CONSTRAINT_UNIQUE') || /unique|duplicate/i.test(messageOf(error));

/** A row pointed at something that is gone (an insert), or something still pointed at was deleted. */
export const isForeignKeyViolation = (error: unknown): boolean =>
  codeOf(error) === '23503' || codeOf(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /foreign key constraint/i.test(messageOf(error));

/**
 * The database refused a value a row holds (too long, out of range, malformed, against one of its
 * rules, an index entry too large): writing that row again fails again. PostgreSQL's classes 22
 * and 23 and 54000; SQLite's constraint, type mismatch and too-big errors.
 */
export const isRefusedValue = (error: unknown): boolean => {
  const code = codeOf(error);
  return /^2[23][0-9A-Z]{3}$/.test(code) || code === '54000' || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(code);
};
