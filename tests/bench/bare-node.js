#!/usr/bin/env node
'use strict';
/**
 * The ceiling the viewer routes are measured against: a bare Node http server, in its own
 * process, answering recorded responses (status, headers and body bytes exactly as Branchify sent
 * them) by path. Reads a JSON file `{ "/path": { "headers": {...}, "body": "<base64>" } }` named
 * by its first argument, listens on an ephemeral port and prints `ready <port>`.
 */
const fs = require('node:fs');
const http = require('node:http');

const recorded = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const answers = new Map(Object.entries(recorded).map(([path, r]) => [path, { headers: r.headers, body: Buffer.from(r.body, 'base64') }]));

const server = http.createServer((req, res) => {
  const answer = answers.get(req.url);
  if (!answer) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, answer.headers);
  res.end(answer.body);
});
server.listen(0, '127.0.0.1', () => console.log(`ready ${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
