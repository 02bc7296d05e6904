import { MESSAGES, endingVideos } from '@branchify/shared';
import { isPrivateAddress, resolveTarget, type Lookup } from '../../plugins/branchify/server/src/webhooks/address';
import { sign } from '../../plugins/branchify/server/src/webhooks/signature';

/** Name resolution played by a table, so each answer a DNS server could give is judged. */
const dnsTable =
  (table: Record<string, string[]>): Lookup =>
  async (host) => {
    const answers = table[host];
    if (!answers) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return answers.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

describe('webhook target addresses', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.255',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:93.184.216.34'])('accepts the public address %s', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });

  it('judges a host name by every address it resolves to, and pins the first', async () => {
    const lookup = dnsTable({
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
      'rebind.example.com': ['93.184.216.34', '127.0.0.1'],
      'internal.example.com': ['10.1.2.3'],
    });
    await expect(resolveTarget('https://hooks.example.com/x', [], lookup)).resolves.toMatchObject({
      address: '93.184.216.34',
      family: 4,
      host: 'hooks.example.com',
    });
    await expect(resolveTarget('https://rebind.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'private', message: MESSAGES.webhookUrlPrivate });
    await expect(resolveTarget('https://internal.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'private' });
    await expect(resolveTarget('https://nowhere.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'unresolvable' });
    // An address an operator allowed, and only that one.
    await expect(resolveTarget('https://internal.example.com/x', ['10.1.2.3'], lookup)).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(resolveTarget('https://10.1.2.4/x', ['10.1.2.3'], lookup)).rejects.toMatchObject({ reason: 'private' });
  });

  it('refuses anything but https, and credentials in the URL', async () => {
    const lookup = dnsTable({ 'hooks.example.com': ['93.184.216.34'] });
    await expect(resolveTarget('http://hooks.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'not_https' });
    await expect(resolveTarget('ftp://hooks.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'not_https' });
    await expect(resolveTarget('https://a:b@hooks.example.com/x', [], lookup)).rejects.toMatchObject({ reason: 'invalid' });
    await expect(resolveTarget('not a url', [], lookup)).rejects.toMatchObject({ reason: 'invalid' });
    await expect(resolveTarget('https://[::1]:8443/x', [], lookup)).rejects.toMatchObject({ reason: 'private' });
  });
});

describe('webhook signatures', () => {
  it('signs "t.body" with HMAC-SHA256 (a known vector)', () => {
    expect(sign('whsec_test', '{"a":1}', 1700000000)).toBe('t=1700000000,v1=38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
  });
});

describe('funnel endings (completion)', () => {
  it('are the videos with no branch to another video', () => {
    const branch = (to: string | null, onclick = 'branch') => ({ type: 'branch', data: { branches: [{ onclick, video: to }] } });
    const videos = [
      { editor_id: 'intro', elements: [branch('second')] },
      { editor_id: 'second', elements: [branch(null, 'url'), { type: 'text', data: {} }] },
      { editor_id: 'loop', elements: [branch('loop')] },
    ];
    expect([...endingVideos(videos)]).toEqual(['second', 'loop']);
  });
});
