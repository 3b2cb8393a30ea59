import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SeenRequest } from '../../support/hostile-provider.js';
import { CALLER_HEADER, describeEveryTarget } from '../../support/hostile-targets.js';
import { everyView, expectNoSecret } from '../../support/secret-views.js';

/**
 * A provider that redirects where it should not, to a data: URL or to another
 * origin: nothing of ours follows, for every integration through a real step.
 */
describeEveryTarget((fx, target) => {
  const { invoke } = fx;
  describe('5. redirects carry nothing of ours', () => {
    let elsewhere: http.Server;
    let seenElsewhere: SeenRequest[];
    beforeAll(async () => {
      seenElsewhere = [];
      elsewhere = http.createServer((request, response) => {
        seenElsewhere.push({
          method: request.method ?? '',
          path: request.url ?? '',
          headers: request.headers,
          body: '',
        });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
      await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise<void>((resolve) => elsewhere.close(() => resolve())));

    it('a redirect to data: is not followed: its payload never becomes the answer', async () => {
      fx.hostile.script((_request, response) => {
        response.writeHead(302, { location: 'data:application/json,{"planted":true}' }).end();
        return true;
      });
      const outcome = await invoke(target.apiCall ?? target.step).catch((caught: unknown) => caught);
      expect(everyView(outcome)).not.toContain('planted');
    });

    it('a cross-origin redirect carries no credential and no caller header', async () => {
      const other = `http://localhost:${(elsewhere.address() as AddressInfo).port}/landed`;
      fx.hostile.script((_request, response) => {
        response.writeHead(302, { location: other }).end();
        return true;
      });
      await invoke(target.apiCall ?? target.step).catch((caught: unknown) => caught);
      expectNoSecret(everyView(seenElsewhere), [...fx.secrets, CALLER_HEADER]);
    });
  });
});
