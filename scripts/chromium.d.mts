/** Where Debian's Chromium is (TOOLSTEPS_CHROMIUM overrides). */
export declare const CHROMIUM: string;
/** The flags the browser tests and the bench start Chromium with. */
export declare const CHROMIUM_FLAGS: string[];
