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

  /**
   * IPv6 forms that carry an IPv4 address (IPv4-mapped, IPv4-translated, IPv4-compatible, 6to4,
   * NAT64) reach that IPv4 address, so they are judged by it; Teredo, local-use NAT64 and the
   * deprecated IPv4-compatible range are refused whatever they embed. Hex and mixed spellings of
   * one address are the same address.
   */
  const EMBEDDED_FORMS: Array<[string, (v4: string, hex: string) => string]> = [
    ['IPv4-mapped (dotted)', (v4) => `::ffff:${v4}`],
    ['IPv4-mapped (hex)', (_v4, hex) => `::ffff:${hex}`],
    ['IPv4-mapped (uncompressed, upper case)', (_v4, hex) => `0:0:0:0:0:FFFF:${hex.toUpperCase()}`],
    ['IPv4-mapped (zero-padded, dotted)', (v4) => `0000:0000:0000:0000:0000:ffff:${v4}`],
    ['IPv4-translated (dotted)', (v4) => `::ffff:0:${v4}`],
    ['IPv4-translated (hex)', (_v4, hex) => `::ffff:0:${hex}`],
    ['IPv4-compatible (dotted)', (v4) => `::${v4}`],
    ['IPv4-compatible (hex)', (_v4, hex) => `::${hex}`],
    ['NAT64 well-known prefix (dotted)', (v4) => `64:ff9b::${v4}`],
    ['NAT64 well-known prefix (hex)', (_v4, hex) => `64:ff9b::${hex}`],
    ['NAT64 well-known prefix (uncompressed)', (_v4, hex) => `0064:ff9b:0000:0000:0000:0000:${hex}`],
    ['NAT64 local-use prefix', (_v4, hex) => `64:ff9b:1::${hex}`],
    ['6to4', (_v4, hex) => `2002:${hex}::1`],
    ['6to4 (uncompressed)', (_v4, hex) => `2002:${hex}:0:0:0:0:0`],
    ['Teredo (server part)', (_v4, hex) => `2001:0:${hex}::1`],
  ];
  const hexOf = (v4: string) => {
    const [a, b, c, d] = v4.split('.').map(Number) as [number, number, number, number];
    return `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  };
  const INTERNAL_V4 = ['127.0.0.1', '10.0.0.1', '192.168.1.1', '172.16.5.4', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1'];
  it.each(EMBEDDED_FORMS.flatMap(([form, spell]) => INTERNAL_V4.map((v4) => [form, v4, spell(v4, hexOf(v4))] as const)))(
    'refuses %s embedding %s (%s)',
    (_form, _v4, address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  // Where the form really reaches the embedded address, a public one is as good as the address itself.
  const JUDGED_FORMS = [
    'IPv4-mapped (dotted)',
    'IPv4-mapped (hex)',
    'IPv4-translated (hex)',
    'NAT64 well-known prefix (dotted)',
    'NAT64 well-known prefix (hex)',
    '6to4',
  ];
  it.each(EMBEDDED_FORMS.filter(([form]) => JUDGED_FORMS.includes(form)).map(([form, spell]) => [form, spell('8.8.8.8', hexOf('8.8.8.8'))] as const))(
    'accepts %s embedding a public address (%s)',
    (_form, address) => {
      expect(isPrivateAddress(address)).toBe(false);
    },
  );

  it.each(['::8.8.8.8', '64:ff9b:1::808:808', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1'])(
    'refuses %s whatever it embeds (deprecated, local-use or tunnelled)',
    (address) => {
      expect(isPrivateAddress(address)).toBe(true);
    },
  );

  it.each([
    'fe80::1%eth0',
    'fe80::1%25eth0',
    '3fff::1',
    '5f00::1',
    '4000::1',
    '0x7f.0.0.1',
    '2130706433',
    '127.1',
    '0177.0.0.1',
    '192.88.99.1',
    'localhost',
    '',
  ])('refuses %s (not a public address in canonical form)', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it('judges URLs and DNS answers in every spelling', async () => {
    const lookup = dnsTable({
      'nat64.example.com': ['64:ff9b::a9fe:a9fe'],
      'mapped.example.com': ['::ffff:7f00:1'],
      'sixtofour.example.com': ['2606:4700::1111', '2002:c0a8:101::1'],
      'public64.example.com': ['64:ff9b::808:808'],
    });
    for (const url of [
      'https://[::ffff:7f00:1]/x',
      'https://[::ffff:0:127.0.0.1]/x',
      'https://[::127.0.0.1]/x',
      'https://[64:ff9b::169.254.169.254]/x',
      'https://[2002:a9fe:a9fe::1]/x',
      'https://[2001:0:a00:1::1]/x',
      'https://0x7f000001/x',
      'https://2130706433/x',
      'https://127.1/x',
      'https://0177.0.0.1/x',
      'https://[0:0:0:0:0:ffff:c0a8:0101]/x',
      'https://nat64.example.com/x',
      'https://mapped.example.com/x',
      'https://sixtofour.example.com/x',
    ]) {
      await expect(resolveTarget(url, [], lookup)).rejects.toMatchObject({ reason: 'private' });
    }
    await expect(resolveTarget('https://public64.example.com/x', [], lookup)).resolves.toMatchObject({ address: '64:ff9b::808:808', family: 6 });
    await expect(resolveTarget('https://[::ffff:808:808]/x', [], lookup)).resolves.toMatchObject({ address: '::ffff:808:808' });
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
