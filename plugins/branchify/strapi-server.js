'use strict';

// Strapi loads the compiled server (npm run build -w branchify → dist/server).
module.exports = require('./dist/server').default;
