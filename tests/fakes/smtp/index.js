'use strict';
/**
 * An SMTP sink for the suites: a real SMTP server (smtp-server) that requires authentication
 * (so a wrong password can be tested), parses what it receives (mailparser) and keeps it for the
 * tests to read over a small HTTP control API. It can be taken down (connections refused) and
 * brought back on the same port, to test the mail outbox.
 *
 *   GET    /messages        every received mail, oldest first
 *   DELETE /messages        forget them
 *   POST   /down | /up      stop / restart the SMTP listener
 *   GET    /state           { up, host, port, username, password, received }
 */
const http = require('node:http');
const { SMTPServer } = require('smtp-server');
const { simpleParser } = require('mailparser');

const addresses = (field) => (field ? (Array.isArray(field) ? field : [field]).flatMap((f) => f.value.map((v) => v.address)) : []);

async function startSmtpSink({ username = 'sink-user', password = 'sink-password' } = {}) {
  const messages = [];
  let smtp = null;
  let port = 0;
  let seq = 0;

  const createServer = () =>
    new SMTPServer({
      logger: false,
      secure: false,
      disabledCommands: ['STARTTLS'],
      allowInsecureAuth: true,
      authOptional: false,
      closeTimeout: 200,
      onAuth(auth, _session, callback) {
        if (auth.username === username && auth.password === password) return callback(null, { user: username });
        const error = new Error('Authentication credentials invalid');
        error.responseCode = 535;
        return callback(error);
      },
      onData(stream, session, callback) {
        simpleParser(stream)
          .then((parsed) => {
            seq += 1;
            messages.push({
              id: seq,
              envelope_to: session.envelope.rcptTo.map((r) => r.address),
              from: parsed.from ? parsed.from.text : null,
              to: addresses(parsed.to),
              subject: parsed.subject ?? '',
              html: typeof parsed.html === 'string' ? parsed.html : '',
              text: parsed.text ?? '',
              message_id: parsed.messageId ?? null,
              received_at: new Date().toISOString(),
            });
            callback();
          })
          .catch(callback);
      },
    });

  const up = () =>
    new Promise((resolve, reject) => {
      if (smtp) return resolve();
      const server = createServer();
      server.on('error', () => undefined);
      server.server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = server.server.address().port;
        smtp = server;
        resolve();
      });
    });

  const down = () =>
    new Promise((resolve) => {
      if (!smtp) return resolve();
      const server = smtp;
      smtp = null;
      server.close(() => resolve());
    });

  await up();

  const state = () => ({ up: Boolean(smtp), host: '127.0.0.1', port, username, password, received: messages.length });
  const control = http.createServer((req, res) => {
    const send = (status, body) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const route = `${req.method} ${req.url.split('?')[0]}`;
    Promise.resolve()
      .then(async () => {
        if (route === 'GET /messages') return send(200, messages);
        if (route === 'DELETE /messages') {
          messages.length = 0;
          return send(200, { ok: true });
        }
        if (route === 'POST /down') {
          await down();
          return send(200, state());
        }
        if (route === 'POST /up') {
          await up();
          return send(200, state());
        }
        if (route === 'GET /state') return send(200, state());
        return send(404, { error: `no route ${route}` });
      })
      .catch((error) => send(500, { error: error.message }));
  });
  await new Promise((resolve) => control.listen(0, '127.0.0.1', resolve));

  return {
    host: '127.0.0.1',
    get port() {
      return port;
    },
    username,
    password,
    controlUrl: `http://127.0.0.1:${control.address().port}`,
    messages,
    up,
    down,
    async stop() {
      await down();
      await new Promise((resolve) => control.close(() => resolve()));
    },
  };
}

module.exports = { startSmtpSink };
