import { defineApiCallStep } from '../../src/api-call-step.js';
import { ticketing } from './integration.js';

export default defineApiCallStep(ticketing, {
  pathField: 'endpoint',
  customHeaders: false,
  title: 'Ticketing API Call',
  keywords: ['api', 'request', 'custom', 'endpoint', 'users', 'organizations', 'raw', 'http'],
  examplePath: '/api/v2/users.json',
});
