import { isContractPath, normalisePath, pathForLog } from '../../plugins/branchify/server/src/http/request-path';

describe('the normalised request path guards compare', () => {
  it('is the same for every spelling the router or a file server accepts', () => {
    const spellings = [
      '/admin/register-admin',
      '/admin/register-admin/',
      '/ADMIN/register-admin',
      '/admin/Register-Admin',
      '/admin//register-admin',
      '//admin/register-admin',
      '/admin/%72egister-admin',
      '/admin/%52EGISTER-admin',
      '/admin%2Fregister-admin',
      '/admin%2fregister-admin///',
    ];
    expect(new Set(spellings.map((raw) => normalisePath(raw).key))).toEqual(new Set(['/admin/register-admin']));
  });

  it('keeps the letters as sent in `decoded`, the same length as `key`', () => {
    const path = normalisePath('/Player/AbC%2Dx/');
    expect(path).toEqual({ decoded: '/Player/AbC-x', key: '/player/abc-x', malformed: false, emptySegment: false, nul: false });
  });

  it('lower-cases ASCII letters only (the router ignores the case of nothing else)', () => {
    // U+212A KELVIN SIGN lower-cases to "k" in Unicode, never in the router's ASCII comparison.
    expect(normalisePath('/api/%E2%84%AA').key).toBe('/api/\u212a');
  });

  it('flags escapes that do not decode and empty segments, without throwing', () => {
    for (const raw of ['/build/%E0%A4%A', '/%', '/api/%ZZ', '/player/%E0']) expect(normalisePath(raw).malformed).toBe(true);
    expect(normalisePath('/api//x').emptySegment).toBe(true);
    expect(normalisePath('/api%2F%2Fx').emptySegment).toBe(false);
    expect(normalisePath('/').decoded).toBe('/');
  });

  it('flags a NUL however it is escaped once, not a "%00" sent escaped twice', () => {
    for (const raw of ['/build/%00', '/build/app/index.html%00.js', '/%00/x', '/player/abc%00']) expect(normalisePath(raw).nul).toBe(true);
    for (const raw of ['/build/app/index.html%2500', '/build/%25%30%30', '/build/app']) expect(normalisePath(raw).nul).toBe(false);
  });

  it('cuts a long path short for a log line, saying how long it was', () => {
    expect(pathForLog('/build/app/index.html')).toBe('/build/app/index.html');
    const long = `/build/${'a'.repeat(5000)}`;
    expect(pathForLog(long)).toBe(`${long.slice(0, 200)}… (5007 characters)`);
  });

  it('places the /api contract by key, the integrator API outside it', () => {
    expect(['/api', '/api/auth/user', '/api/branchifyx'].every(isContractPath)).toBe(true);
    expect(['/apix', '/api/branchify', '/api/branchify/plans', '/cms/api'].some(isContractPath)).toBe(false);
  });
});
