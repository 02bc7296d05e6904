import { env } from '@branchify/shared/node';
import { formats, winston } from '@strapi/logger';

export default () => {
  const e = env();
  const transports: winston.transport[] = [
    new winston.transports.Console({ level: e.LOG_LEVEL, format: formats.prettyPrint({ timestamps: 'YYYY-MM-DD HH:mm:ss.SSS' }) }),
  ];
  if (e.LOG_FILE) {
    // A machine-readable copy (one JSON object per line) for log shippers and the test suite.
    transports.push(
      new winston.transports.File({
        filename: e.LOG_FILE,
        level: 'info',
        format: winston.format.combine(winston.format.timestamp(), winston.format.json()),
      }),
    );
  }
  return { transports };
};
