import { PASSWORD_MASK } from '../utils/masked-secret';
import { seal, unseal } from '../utils/secret-box';
import { query, UID, type Strapi } from '../utils/strapi';
import type { MailerSettingsRow } from '../content-types/mailer-setting';

type Encryption = 'none' | 'ssl' | 'tls';

export interface MailerSettings {
  host: string;
  port: number;
  encryption: Encryption;
  username: string | null;
  password: string | null;
  from_address: string;
  from_name: string | null;
}

interface MailerSettingsInput {
  host: string;
  port: number;
  encryption: Encryption;
  username?: string | null;
  /** Omitted or empty: keep the stored password. */
  password?: string | null;
  from_address: string;
  from_name?: string | null;
}

const PASSWORD = 'mailer.password';

/**
 * The transactional mailer settings an admin saves under Integrations (tab 1). The password is
 * sealed with the app's encryption key and never leaves the server. Read from the database on
 * every use, so every app node sends with the current settings.
 */
export default ({ strapi }: { strapi: Strapi }) => {
  const rows = () => query(strapi, UID.mailerSetting);
  const row = async (): Promise<MailerSettingsRow | null> => rows().findOne({});

  const toSettings = (r: MailerSettingsRow | null): MailerSettings | null => {
    if (!r?.host || !r.port || !r.from_address) return null;
    let password: string | null = null;
    if (r.password_encrypted) {
      try {
        password = unseal(r.password_encrypted, PASSWORD);
      } catch {
        strapi.log.error('[mailer] the stored SMTP password cannot be decrypted (was ENCRYPTION_KEY changed?)');
      }
    }
    const encryption = (['none', 'ssl', 'tls'] as const).find((e) => e === r.encryption) ?? 'none';
    return { host: r.host, port: r.port, encryption, username: r.username || null, password, from_address: r.from_address, from_name: r.from_name || null };
  };

  return {
    /** The settings to send with, or null when no mailer is configured. */
    async current(): Promise<MailerSettings | null> {
      return toSettings(await row());
    },

    async configured(): Promise<boolean> {
      return (await this.current()) !== null;
    },

    async hasPassword(): Promise<boolean> {
      return Boolean((await row())?.password_encrypted);
    },

    /**
     * Saves the settings. Empty or the served mask as password: the stored one stays. The
     * verification stays valid while the connection (host, port, encryption, login) is unchanged.
     */
    async save(input: MailerSettingsInput): Promise<void> {
      const existing = await row();
      const password = input.password && input.password !== PASSWORD_MASK ? input.password : null;
      const data: Record<string, unknown> = {
        host: input.host,
        port: input.port,
        encryption: input.encryption,
        username: input.username || null,
        from_address: input.from_address,
        from_name: input.from_name || null,
      };
      if (password) data.password_encrypted = seal(password, PASSWORD);
      // A cleared username means no authentication: a stale password must not linger.
      if (!input.username) data.password_encrypted = null;
      const before = toSettings(existing);
      const sameConnection =
        before !== null &&
        before.host === data.host &&
        before.port === data.port &&
        before.encryption === data.encryption &&
        before.username === data.username &&
        (password === null ? Boolean(data.username) || !existing?.password_encrypted : password === before.password);
      if (!sameConnection) data.verified_at = null;
      if (existing) await rows().update({ where: { id: existing.id }, data });
      else await rows().create({ data });
    },

    async markVerified(): Promise<void> {
      const existing = await row();
      if (existing) await rows().update({ where: { id: existing.id }, data: { verified_at: new Date() } });
    },

    /** What the admin form shows: everything, the password masked. */
    async publicView() {
      const r = await row();
      return {
        host: r?.host ?? '',
        port: r?.port ?? null,
        encryption: r?.encryption ?? 'none',
        username: r?.username ?? '',
        // Masked: sent back unchanged, it keeps the stored password.
        password: r?.password_encrypted ? PASSWORD_MASK : '',
        has_password: Boolean(r?.password_encrypted),
        from_address: r?.from_address ?? '',
        from_name: r?.from_name ?? '',
        configured: toSettings(r) !== null,
        verified_at: r?.verified_at ? new Date(r.verified_at).toISOString() : null,
      };
    },
  };
};
