import { defineApiCallStep } from 'toolsteps/kit';
import { notes } from './integration.js';

/** Any endpoint the steps do not cover, under the connection's base URL and credentials only. */
export const notesApiCall = defineApiCallStep(notes, {
  pathField: 'endpoint',
  customHeaders: false,
  title: 'Acme Notes API Call',
  keywords: ['api', 'request', 'custom', 'endpoint', 'http'],
  examplePath: '/v1/notes?limit=10',
});
