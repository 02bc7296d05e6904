import crypto from 'node:crypto';
import { effectiveColorScheme, hexToRgb } from '../../plugins/branchify/server/src/customization/colors';
import { sanitizeSvg } from '../../plugins/branchify/server/src/customization/upload-store';
import { effectiveTemplates, render, unknownPlaceholders, DEFAULT_TEMPLATES } from '../../plugins/branchify/server/src/mailer/templates';
import { compareVersions, feedUrlAllowed, packageUrlFor, parsePublicKey, signedMessage } from '../../plugins/branchify/server/src/updates/feed';

describe('email templates', () => {
  it('fills placeholders, escaping values in the body but not in the subject', () => {
    const mail = render({ subject: 'Hi {{ first_name }}\r\nBcc: x', body: '<p>{{first_name}} {{missing}}</p>' }, { first_name: '<b>&"\'' });
    expect(mail.html).toBe('<p>&lt;b&gt;&amp;&quot;&#39; {{missing}}</p>');
    expect(mail.subject).toBe('Hi <b>&"\' Bcc: x');
    expect(mail.text).toBe('<b>&"\' {{missing}}');
  });

  it('uses overrides only where they are set, and names unknown placeholders', () => {
    const t = effectiveTemplates({ password_reset: { subject: 'Reset', body: '' } });
    expect(t.password_reset.subject).toBe('Reset');
    expect(t.password_reset.body).toBe(DEFAULT_TEMPLATES.password_reset.body);
    expect(unknownPlaceholders('{{reset_link}} {{reason}} {{ email }}', DEFAULT_TEMPLATES.password_reset)).toEqual(['reason']);
  });
});

describe('colour scheme', () => {
  it('derives the rgb variants from hex colours, short or long', () => {
    expect(hexToRgb('#2f27ce')).toBe('47, 39, 206');
    expect(hexToRgb('#fff')).toBe('255, 255, 255');
    const scheme = effectiveColorScheme({ '--primary': '#000', '--primary-rgb': '9, 9, 9', dark: '#010203' });
    expect(scheme['--primary-rgb']).toBe('0, 0, 0');
    expect(scheme['--dark-rgb']).toBe('1, 2, 3');
    expect(scheme['--sidebar-width']).toBe('270px');
  });
});

describe('SVG sanitising', () => {
  it('keeps the drawing and drops what could run', () => {
    const clean = sanitizeSvg('<svg viewBox="0 0 1 1" onload="x()"><script>x()</script><rect width="1" height="1"/></svg>')!;
    expect(clean).toContain('<rect');
    expect(clean).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(clean).not.toMatch(/script|onload/);
    expect(sanitizeSvg('<p>not an svg</p>')).toBeNull();
  });
});

describe('update feed helpers', () => {
  it('compares versions numerically', () => {
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('2.0.7', '2.0.7')).toBe(0);
    expect(compareVersions('1.9.0', '2.0.0')).toBeLessThan(0);
  });

  it('reads the public key as PEM, raw base64 or DER base64', () => {
    const { publicKey, privateKey } = crypto.generateKeyPairSync('ed25519');
    const signature = crypto.sign(null, signedMessage('2.1.0', 'ab'.repeat(32)), privateKey);
    const der = publicKey.export({ type: 'spki', format: 'der' });
    for (const form of [publicKey.export({ type: 'spki', format: 'pem' }).toString(), der.toString('base64'), der.subarray(-32).toString('base64')]) {
      expect(crypto.verify(null, signedMessage('2.1.0', 'ab'.repeat(32)), parsePublicKey(form), signature)).toBe(true);
      expect(crypto.verify(null, signedMessage('2.1.1', 'ab'.repeat(32)), parsePublicKey(form), signature)).toBe(false);
    }
  });
});

describe('update feed addresses', () => {
  it('asks for https, except on this machine', () => {
    expect(feedUrlAllowed('https://updates.example.com/feed')).toBe(true);
    expect(feedUrlAllowed('http://127.0.0.1:8080/feed')).toBe(true);
    expect(feedUrlAllowed('http://localhost/feed')).toBe(true);
    expect(feedUrlAllowed('http://[::1]:9/feed')).toBe(true);
    expect(feedUrlAllowed('http://updates.example.com/feed')).toBe(false);
    expect(feedUrlAllowed('ftp://updates.example.com/feed')).toBe(false);
  });

  it("pins the package to the feed's own origin", () => {
    const feed = 'https://updates.example.com/v1/feed';
    expect(packageUrlFor(feed, '/packages/2.1.0.tar.gz')).toBe('https://updates.example.com/packages/2.1.0.tar.gz');
    expect(packageUrlFor(feed, 'https://updates.example.com/p.tar.gz')).toBe('https://updates.example.com/p.tar.gz');
    expect(packageUrlFor(feed, 'https://evil.example/p.tar.gz')).toBeNull();
    expect(packageUrlFor(feed, 'http://updates.example.com/p.tar.gz')).toBeNull();
    expect(packageUrlFor(feed, 'https://updates.example.com:8443/p.tar.gz')).toBeNull();
    expect(packageUrlFor(feed, '//evil.example/p.tar.gz')).toBeNull();
  });
});
