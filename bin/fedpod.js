#!/usr/bin/env node
'use strict';
// The `fedpod` command line; it lives in src/cli/ (built to dist/cli/).
require('../dist/cli/main').main();
