import { defineApiCallStep } from '../../src/kit/index.js';
import { ticketing } from './integration.js';

export default defineApiCallStep(ticketing, {
  pathField: 'endpoint',
  customHeaders: false,
  // The spec: "Attachments are handled through the same API Call step" (POST /api/v2/uploads.json?filename=...).
  uploads: true,
  title: 'Ticketing API Call',
  keywords: [
    'api',
    'request',
    'custom',
    'endpoint',
    'users',
    'organizations',
    'raw',
    'http',
    'upload',
    'attachment',
  ],
  examplePath: '/api/v2/users.json',
});
