import fs from 'node:fs';

/**
 * Reads the server's JSON log (LOG_FILE) for the link the product writes there when no mailer is
 * configured. The file transport writes asynchronously, so this polls briefly for the line.
 */
export const findLoggedLink = async (kind: 'verification' | 'reset', email: string, after = 0): Promise<string | undefined> => {
  const file = process.env.LOG_FILE;
  if (!file) throw new Error('LOG_FILE is not set');
  const prefix = kind === 'verification' ? `[mail] Email verification link for ${email}: ` : `[mail] Password reset link for ${email}: `;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n') : [];
    const matches = lines
      .slice(after)
      .map((line) => {
        try {
          return JSON.parse(line) as { message?: string };
        } catch {
          return {};
        }
      })
      .filter((entry) => typeof entry.message === 'string' && entry.message.startsWith(prefix));
    const last = matches[matches.length - 1];
    if (last?.message) return last.message.slice(prefix.length).trim();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
};

/** The current number of log lines, to look only at what comes after an action. */
export const logLength = (): number => {
  const file = process.env.LOG_FILE!;
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').length - 1 : 0;
};
