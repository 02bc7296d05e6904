'use strict';
/**
 * Starts the operations test servers (SMTP sink, update feed, HTTPS webhook receiver) before Strapi and hands their
 * addresses to the app (UPDATE_*) and to the suites (BRANCHIFY_SMTP_*, BRANCHIFY_UPDATE_FEED_*)
 * through the environment. Mail retry timings are shortened so the outbox tests run quickly.
 */
const fs = require('node:fs');
const path = require('node:path');
const { startSmtpSink } = require('./smtp');
const { startUpdateFeed } = require('./update-feed');
const { startWebhookReceiver } = require('./webhook-receiver');

const setDefault = (name, value) => {
  if (!process.env[name]) process.env[name] = value;
};

async function start({ tmpDir }) {
  const smtp = await startSmtpSink();
  const feed = await startUpdateFeed();
  const webhooks = await startWebhookReceiver({ tmpDir });
  const updatesDir = path.join(tmpDir, `updates-${process.pid}-${Date.now().toString(36)}`);

  process.env.BRANCHIFY_SMTP_HOST = smtp.host;
  process.env.BRANCHIFY_SMTP_PORT = String(smtp.port);
  process.env.BRANCHIFY_SMTP_USERNAME = smtp.username;
  process.env.BRANCHIFY_SMTP_PASSWORD = smtp.password;
  process.env.BRANCHIFY_SMTP_CONTROL_URL = smtp.controlUrl;
  process.env.BRANCHIFY_UPDATE_FEED_CONTROL_URL = feed.controlUrl;
  process.env.BRANCHIFY_UPDATE_FEED_REVOKED_KEY = feed.revokedKey;

  process.env.BRANCHIFY_WEBHOOK_RECEIVER_URL = webhooks.url;
  process.env.BRANCHIFY_WEBHOOK_CONTROL_URL = webhooks.controlUrl;
  // Only the receiver's loopback address is allowed, and only its certificate trusted besides the system's.
  setDefault('WEBHOOKS_ALLOWED_PRIVATE_ADDRESSES', webhooks.host);
  setDefault('WEBHOOKS_CA_FILE', webhooks.certFile);
  setDefault('WEBHOOKS_RETRY_BASE_MS', '300');
  setDefault('WEBHOOKS_RETRY_MAX_MS', '2000');
  setDefault('WEBHOOKS_WORKER_INTERVAL_MS', '200');
  setDefault('WEBHOOKS_MAX_ATTEMPTS', '4');
  setDefault('WEBHOOKS_TIMEOUT_MS', '5000');
  setDefault('UPDATE_FEED_URL', feed.feedUrl);
  setDefault('UPDATE_PUBLIC_KEY', feed.publicKeyPem);
  setDefault('UPDATES_DIR', updatesDir);
  setDefault('MAIL_RETRY_BASE_MS', '200');
  setDefault('MAIL_RETRY_MAX_MS', '1000');
  setDefault('MAIL_WORKER_INTERVAL_MS', '200');
  setDefault('MAIL_SMTP_TIMEOUT_MS', '5000');

  return { smtp, feed, webhooks, updatesDir: process.env.UPDATES_DIR };
}

async function stop(handles) {
  if (!handles) return;
  await Promise.allSettled([handles.smtp.stop(), handles.feed.stop(), handles.webhooks.stop()]);
  if (handles.updatesDir) fs.rmSync(handles.updatesDir, { recursive: true, force: true });
}

module.exports = { start, stop };
