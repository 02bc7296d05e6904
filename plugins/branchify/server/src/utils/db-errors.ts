/** What the database said, read the same way on PostgreSQL and SQLite. */
const codeOf = (error: unknown): string => String((error as { code?: unknown })?.code ?? '');
const messageOf = (error: unknown): string => String((error as Error)?.message ?? '');

/** A second row where a unique index allows one. */
export const isUniqueViolation = (error: unknown): boolean =>
  codeOf(error) === '23505' || codeOf(error).startsWith('SQLITE_CONSTRAINT_UNIQUE') || /unique|duplicate/i.test(messageOf(error));

/** A row pointed at something that is gone (an insert), or something still pointed at was deleted. */
export const isForeignKeyViolation = (error: unknown): boolean =>
  codeOf(error) === '23503' || codeOf(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY' || /foreign key constraint/i.test(messageOf(error));
