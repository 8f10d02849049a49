'use strict';

// Shared benchmark helpers; see bench/README.md.

module.exports = {
  ...require('./config'),
  ...require('./ports'),
  ...require('./http'),
  ...require('./process'),
  ...require('./load'),
  ...require('./report'),
  ...require('./css'),
  ...require('./fedpod'),
  ...require('./sparql'),
  ...require('./runner'),
};
