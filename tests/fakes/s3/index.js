'use strict';
/**
 * An S3-compatible object store for the suites, speaking the REST calls the upload provider makes
 * (PutObject, GetObject, HeadObject, DeleteObject). Every request must carry an AWS Signature
 * Version 4 made with the known test credentials (recomputed here: canonical request, string to
 * sign, signing key); unsigned GET/HEAD are allowed on objects stored `public-read`. Bodies sent
 * as `Content-Encoding: aws-chunked` (the SDK's streaming uploads) are decoded, chunk signatures
 * checked, and any `x-amz-checksum-*` header or trailer compared with the stored bytes. Objects
 * live in memory.
 *
 *   PUT    /<bucket>/<key>   (or Host: <bucket>.localhost)   PutObject
 *   GET    /<bucket>/<key>                                    GetObject
 *   HEAD   /<bucket>/<key>                                    HeadObject
 *   DELETE /<bucket>/<key>                                    DeleteObject (204 whether or not it existed)
 *   GET    /_control/objects                                  [{ bucket, key, size, contentType, acl }]
 *
 * Errors are S3's XML bodies: SignatureDoesNotMatch, InvalidAccessKeyId, AccessDenied,
 * AuthorizationHeaderMalformed, NoSuchBucket, NoSuchKey, BadDigest.
 */
const nodeCrypto = require('node:crypto');
const http = require('node:http');

const ACCESS_KEY_ID = 'AKIAFAKES3TESTKEY000';
const SECRET_ACCESS_KEY = 'fake-s3-secret/for+tests0000000000000000';
const REGION = 'us-east-1';

const sha256 = (data) => nodeCrypto.createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => nodeCrypto.createHmac('sha256', key).update(data).digest();
/** RFC 3986 encoding, as SigV4 requires for query names and values. */
const uriEncode = (s) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// Checksums the SDK may send (header or trailer), base64 of the big-endian digest.
const crcTable = (poly) =>
  Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? (poly ^ (c >>> 1)) >>> 0 : c >>> 1;
    return c >>> 0;
  });
const CRC32 = crcTable(0xedb88320);
const CRC32C = crcTable(0x82f63b78);
const crc = (table) => (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = (table[(c ^ b) & 0xff] ^ (c >>> 8)) >>> 0;
  const out = Buffer.alloc(4);
  out.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return out.toString('base64');
};
const MASK64 = (1n << 64n) - 1n;
const CRC64NVME = Array.from({ length: 256 }, (_, n) => {
  let c = BigInt(n);
  for (let k = 0; k < 8; k += 1) c = c & 1n ? 0x9a6c9329ac4bc9b5n ^ (c >> 1n) : c >> 1n;
  return c;
});
const crc64nvme = (bytes) => {
  let c = MASK64;
  for (const b of bytes) c = CRC64NVME[Number((c ^ BigInt(b)) & 0xffn)] ^ (c >> 8n);
  const out = Buffer.alloc(8);
  out.writeBigUInt64BE(c ^ MASK64);
  return out.toString('base64');
};
const CHECKSUMS = {
  'x-amz-checksum-crc32': crc(CRC32),
  'x-amz-checksum-crc32c': crc(CRC32C),
  'x-amz-checksum-crc64nvme': crc64nvme,
  'x-amz-checksum-sha1': (b) => nodeCrypto.createHash('sha1').update(b).digest('base64'),
  'x-amz-checksum-sha256': (b) => nodeCrypto.createHash('sha256').update(b).digest('base64'),
};

class S3Error extends Error {
  constructor(status, code, message, extra = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.extra = extra;
  }
}

const xmlEscape = (s) => String(s).replace(/[<>&'"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]);

/** The request's bucket and key: virtual-host style (`<bucket>.localhost`) or path style. */
const locate = (req, rawPath) => {
  const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
  const virtual = /^(.+)\.localhost$/.exec(host);
  const segments = rawPath.split('/').slice(1);
  const bucket = virtual ? virtual[1] : decodeURIComponent(segments.shift() ?? '');
  return { bucket, key: decodeURIComponent(segments.join('/')) };
};

const parseAuthorization = (header) => {
  const m = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(header);
  if (!m) throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  const [accessKeyId, date, region, service, terminator] = m[1].split('/');
  if (terminator !== 'aws4_request' || service !== 's3') throw new S3Error(400, 'AuthorizationHeaderMalformed', 'The authorization header is malformed.');
  if (accessKeyId !== ACCESS_KEY_ID) throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.');
  if (region !== REGION)
    throw new S3Error(400, 'AuthorizationHeaderMalformed', `The authorization header is malformed; the region '${region}' is wrong; expecting '${REGION}'`);
  return { date, region, signedHeaders: m[2].split(';'), signature: m[3] };
};

const signingKey = (date, region) => hmac(hmac(hmac(hmac(`AWS4${SECRET_ACCESS_KEY}`, date), region), 's3'), 'aws4_request');

/** Recomputes the request's signature; returns what chunk signatures chain from. */
const verifySignature = (req, rawPath, rawQuery) => {
  const auth = parseAuthorization(String(req.headers.authorization));
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  if (!amzDate.startsWith(auth.date)) throw new S3Error(403, 'AccessDenied', 'x-amz-date does not match the credential scope.');
  const query = rawQuery
    ? rawQuery
        .split('&')
        .map((pair) => {
          const [k, v = ''] = pair.split('=');
          return [uriEncode(decodeURIComponent(k)), uriEncode(decodeURIComponent(v))];
        })
        .sort(([ka, va], [kb, vb]) => (ka === kb ? (va < vb ? -1 : 1) : ka < kb ? -1 : 1))
        .map(([k, v]) => `${k}=${v}`)
        .join('&')
    : '';
  const headers = auth.signedHeaders.map((name) => {
    const value = req.headers[name];
    if (value === undefined) throw new S3Error(403, 'AccessDenied', `signed header ${name} is missing`);
    return `${name}:${String(value).trim().replace(/\s+/g, ' ')}\n`;
  });
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!payloadHash) throw new S3Error(400, 'InvalidRequest', 'Missing required header for this request: x-amz-content-sha256');
  const canonical = [req.method, rawPath, query, headers.join(''), auth.signedHeaders.join(';'), payloadHash].join('\n');
  const scope = `${auth.date}/${auth.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonical)].join('\n');
  const key = signingKey(auth.date, auth.region);
  const expected = hmac(key, stringToSign).toString('hex');
  if (!nodeCrypto.timingSafeEqual(Buffer.from(expected), Buffer.from(auth.signature))) {
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
  return { key, scope, amzDate, seed: auth.signature, payloadHash };
};

/**
 * Decodes an aws-chunked body: `<hex size>[;chunk-signature=<sig>]\r\n<data>\r\n` … `0[;…]\r\n`,
 * then trailer lines `name:value\r\n` and a blank line. Signed chunks chain from the seed signature.
 */
const decodeChunked = (raw, signed) => {
  const parts = [];
  const trailers = {};
  let at = 0;
  let previous = signed?.seed;
  const line = () => {
    const end = raw.indexOf('\r\n', at);
    if (end < 0) throw new S3Error(400, 'IncompleteBody', 'The aws-chunked body ended early.');
    const text = raw.subarray(at, end).toString('latin1');
    at = end + 2;
    return text;
  };
  for (;;) {
    const [sizeHex, ...extensions] = line().split(';');
    const size = parseInt(sizeHex, 16);
    if (!Number.isInteger(size) || size < 0 || at + size > raw.length) throw new S3Error(400, 'IncompleteBody', 'Bad aws-chunked chunk size.');
    const data = raw.subarray(at, at + size);
    at += size;
    if (signed) {
      const sig = /^chunk-signature=([0-9a-f]{64})$/.exec(extensions.join(';'))?.[1];
      const stringToSign = ['AWS4-HMAC-SHA256-PAYLOAD', signed.amzDate, signed.scope, previous, sha256(''), sha256(data)].join('\n');
      if (!sig || hmac(signed.key, stringToSign).toString('hex') !== sig) {
        throw new S3Error(403, 'SignatureDoesNotMatch', 'The chunk signature we calculated does not match the signature you provided.');
      }
      previous = sig;
    }
    if (size === 0) break;
    parts.push(data);
    if (line() !== '') throw new S3Error(400, 'IncompleteBody', 'A chunk does not end with CRLF.');
  }
  while (at < raw.length) {
    const text = line();
    if (text === '') break;
    const colon = text.indexOf(':');
    if (colon > 0) trailers[text.slice(0, colon).trim().toLowerCase()] = text.slice(colon + 1).trim();
  }
  return { body: Buffer.concat(parts), trailers };
};

const verifyChecksums = (body, values) => {
  for (const [name, compute] of Object.entries(CHECKSUMS)) {
    const given = values[name];
    if (given !== undefined && given !== compute(body)) {
      throw new S3Error(400, 'BadDigest', `The ${name.slice('x-amz-checksum-'.length).toUpperCase()} you specified did not match the calculated checksum.`);
    }
  }
  const md5 = values['content-md5'];
  if (md5 !== undefined && md5 !== nodeCrypto.createHash('md5').update(body).digest('base64')) {
    throw new S3Error(400, 'BadDigest', 'The Content-MD5 you specified did not match what we received.');
  }
};

async function startFakeS3({ buckets = ['branchify-test'] } = {}) {
  /** bucket -> key -> { body, contentType, acl, etag, lastModified, checksums } */
  const store = new Map(buckets.map((b) => [b, new Map()]));
  const requests = [];

  const handle = (req, raw) => {
    const [rawPath, rawQuery = ''] = String(req.url).split('?');
    if (rawPath === '/_control/objects' && req.method === 'GET') {
      return { status: 200, json: listObjects() };
    }
    const { bucket, key } = locate(req, rawPath);
    const signed = req.headers.authorization ? verifySignature(req, rawPath, rawQuery) : null;
    requests.push({ method: req.method, bucket, key, signed: Boolean(signed), payload: signed?.payloadHash ?? null });
    const objects = store.get(bucket);
    if (!objects) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist.', { BucketName: bucket });
    if (!key) throw new S3Error(501, 'NotImplemented', 'Only object operations are implemented.');
    const object = objects.get(key);

    if (!signed) {
      // Anonymous reads of public objects only, as a bucket with public-read objects serves them.
      if ((req.method === 'GET' || req.method === 'HEAD') && object?.acl === 'public-read') return { status: 200, object, head: req.method === 'HEAD' };
      throw new S3Error(403, 'AccessDenied', 'Access Denied');
    }

    if (req.method === 'PUT') {
      if (req.headers['x-amz-copy-source']) throw new S3Error(501, 'NotImplemented', 'CopyObject is not implemented.');
      const { payloadHash } = signed;
      const encoding = String(req.headers['content-encoding'] ?? '');
      let body = raw;
      let trailers = {};
      if (payloadHash.startsWith('STREAMING-')) {
        if (
          !encoding
            .split(',')
            .map((e) => e.trim())
            .includes('aws-chunked') &&
          payloadHash !== 'STREAMING-UNSIGNED-PAYLOAD-TRAILER'
        ) {
          throw new S3Error(400, 'InvalidRequest', 'A streaming payload needs Content-Encoding: aws-chunked.');
        }
        ({ body, trailers } = decodeChunked(raw, payloadHash.startsWith('STREAMING-AWS4-HMAC-SHA256-PAYLOAD') ? signed : null));
        const declared = req.headers['x-amz-decoded-content-length'];
        if (declared !== undefined && Number(declared) !== body.length)
          throw new S3Error(400, 'IncompleteBody', 'The decoded length does not match x-amz-decoded-content-length.');
      } else if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(raw)) {
        throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
      }
      verifyChecksums(body, { ...req.headers, ...trailers });
      const checksums = Object.fromEntries(
        Object.keys(CHECKSUMS).flatMap((name) => ((req.headers[name] ?? trailers[name]) ? [[name, req.headers[name] ?? trailers[name]]] : [])),
      );
      const etag = `"${nodeCrypto.createHash('md5').update(body).digest('hex')}"`;
      const stored = {
        body,
        contentType: String(req.headers['content-type'] ?? 'binary/octet-stream'),
        acl: String(req.headers['x-amz-acl'] ?? 'private'),
        etag,
        lastModified: new Date(),
        checksums,
      };
      objects.set(key, stored);
      return { status: 200, headers: { etag, ...checksums } };
    }
    if (req.method === 'DELETE') {
      objects.delete(key);
      return { status: 204 };
    }
    if (req.method === 'GET' || req.method === 'HEAD') {
      if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.', { Key: key });
      return { status: 200, object, head: req.method === 'HEAD' };
    }
    throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
  };

  const listObjects = () =>
    [...store].flatMap(([bucket, objects]) =>
      [...objects].map(([key, o]) => ({ bucket, key, size: o.body.length, contentType: o.contentType, acl: o.acl, checksums: o.checksums })),
    );

  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const requestId = nodeCrypto.randomBytes(8).toString('hex').toUpperCase();
      let answer;
      try {
        answer = handle(req, Buffer.concat(chunks));
      } catch (error) {
        if (!(error instanceof S3Error)) {
          answer = { status: 500, error: new S3Error(500, 'InternalError', error.message) };
        } else answer = { status: error.status, error };
      }
      const base = { 'x-amz-request-id': requestId, server: 'FakeS3' };
      if (answer.error) {
        const { code, message, extra } = answer.error;
        const fields = Object.entries(extra)
          .map(([k, v]) => `<${k}>${xmlEscape(v)}</${k}>`)
          .join('');
        const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message>${fields}<RequestId>${requestId}</RequestId></Error>`;
        // HEAD answers carry no body, as S3's do.
        res.writeHead(answer.status, { ...base, 'content-type': 'application/xml', 'content-length': req.method === 'HEAD' ? 0 : Buffer.byteLength(xml) });
        return res.end(req.method === 'HEAD' ? undefined : xml);
      }
      if (answer.json) {
        res.writeHead(200, { ...base, 'content-type': 'application/json' });
        return res.end(JSON.stringify(answer.json));
      }
      if (answer.object) {
        const o = answer.object;
        res.writeHead(200, {
          ...base,
          'content-type': o.contentType,
          'content-length': o.body.length,
          etag: o.etag,
          'last-modified': o.lastModified.toUTCString(),
        });
        return res.end(answer.head ? undefined : o.body);
      }
      res.writeHead(answer.status, { ...base, ...answer.headers, 'content-length': 0 });
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;

  return {
    url,
    region: REGION,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    /** Every object held, without bodies. */
    objects: listObjects,
    /** One object's bytes and metadata, or undefined. */
    object: (bucket, key) => store.get(bucket)?.get(key),
    /** Requests whose signature held (method, bucket, key, whether signed, x-amz-content-sha256). */
    requests,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

module.exports = { startFakeS3 };
