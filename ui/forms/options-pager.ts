import type { OptionItem, OptionsResponse } from '../client/api-types.js';

/** Fetches one page of a field's choices from the connected account. */
export type OptionsLoader = (request: { query?: string; cursor?: string }) => Promise<OptionsResponse>;

/**
 * The pages of a field's choices as the account answers them: the items so
 * far, the cursor of the next page, and whether a page is on its way or
 * failed to come (the field shows "Loading choices…" or says it failed,
 * never a blank list). An answer that comes after a newer request's (a slow
 * search, a stale reload) is dropped.
 */
export class OptionsPager {
  items: OptionItem[] = [];
  cursor: string | null = null;
  state: 'idle' | 'loading' | 'failed' = 'idle';
  #requests = 0;

  constructor(
    private readonly load: OptionsLoader,
    private readonly changed: () => void,
    private readonly failed: (error: unknown) => void,
  ) {}

  /** Loads the first page for `query`, or with `append` the next one after the items held. */
  async fetch(query: string, append: boolean): Promise<void> {
    const request = ++this.#requests;
    this.state = 'loading';
    this.changed();
    try {
      const cursor = append ? this.cursor : null;
      const page = await this.load({ ...(query ? { query } : {}), ...(cursor ? { cursor } : {}) });
      if (request !== this.#requests) return;
      this.items = append ? [...this.items, ...page.options] : page.options;
      this.cursor = page.nextCursor;
      this.state = 'idle';
      this.changed();
    } catch (error) {
      if (request !== this.#requests) return;
      this.state = 'failed';
      this.changed();
      this.failed(error);
    }
  }
}
